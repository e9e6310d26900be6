import DataChanges

/// A transaction's writes, each noting what it changed and for whom, then done by `base`: a
/// user's preferences, for them.
public struct NotingPreferencesWriting: PreferencesWriting {
    /// The transaction it wraps, whose reads it passes on as they are
    /// (NotingPreferencesWriting+Reading.swift, which Scripts/generate-services writes).
    let base: any PreferencesWriting
    private let people: ChangedPeople

    public init(_ base: any PreferencesWriting, noting people: ChangedPeople) {
        self.base = base
        self.people = people
    }

    public func save(_ record: PreferencesRecord) throws {
        people.changed(.preferences, record.userID, for: [record.userID])
        try base.save(record)
    }
}
