import FlowKit

/// What the user can do on an expense's details.
enum ExpenseDetailAction: ViewAction {
    typealias ScreenView = ExpenseDetailView

    case picked(ElementID)
    case edit
    case delete
    case confirmDelete
    case history
    case versionChosen(ElementID)
    case restoreVersion
    case typedComment(String, isFinal: Bool)
    case addComment
    case myCommentChosen(ElementID)
    case confirmDeleteComment
    case stopRepeating
    case editSeries
    case back

    static func action(for event: UserEvent) -> Self? {
        switch event {
        case .choose(ScreenView.expense, let ids): ids.first.map(Self.picked)
        case .tap(ScreenView.edit): .edit
        case .tap(ScreenView.delete): .delete
        case .tap(ScreenView.confirmDelete): .confirmDelete
        case .tap(ScreenView.history): .history
        case .choose(ScreenView.version, let ids): ids.first.map(Self.versionChosen)
        case .tap(ScreenView.restoreVersion): .restoreVersion
        case .fill(ScreenView.comment, let text): .typedComment(text, isFinal: true)
        case .edit(ScreenView.comment, let text): .typedComment(text, isFinal: false)
        case .tap(ScreenView.addComment): .addComment
        case .choose(ScreenView.myComment, let ids): ids.first.map(Self.myCommentChosen)
        case .tap(ScreenView.confirmDeleteComment): .confirmDeleteComment
        case .tap(ScreenView.stopRepeating): .stopRepeating
        case .tap(ScreenView.editSeries): .editSeries
        case .tap(.back), .back, .cancel: .back
        default: nil
        }
    }
}
