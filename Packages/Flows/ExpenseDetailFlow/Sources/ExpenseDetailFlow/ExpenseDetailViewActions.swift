import FlowKit

/// What the user can do on an expense's details.
enum ExpenseDetailAction: ViewAction {
    typealias ScreenView = ExpenseDetailView

    case picked(ElementID)
    case tapped(ScreenView.Tap)
    case versionChosen(ElementID)
    case typedComment(String, isFinal: Bool)
    case myCommentChosen(ElementID)
    case back

    static func action(for event: UserEvent) -> Self? {
        switch event {
        case .choose(ScreenView.expense, let ids): ids.first.map(Self.picked)
        case .choose(ScreenView.version, let ids): ids.first.map(Self.versionChosen)
        case .fill(ScreenView.comment, let text): .typedComment(text, isFinal: true)
        case .edit(ScreenView.comment, let text): .typedComment(text, isFinal: false)
        case .choose(ScreenView.myComment, let ids): ids.first.map(Self.myCommentChosen)
        case .tap(.back), .back, .cancel: .back
        default: nil
        }
    }
}
