import FlowKit

/// What the user can do while editing a group.
enum EditGroupAction: ViewAction {
    typealias ScreenView = EditGroupView

    case typed(String)
    case chose(ElementID, [ElementID])
    case tapped(ScreenView.Tap)
    /// Archive the group (true), or bring it back (false).
    case archive(Bool)
    case cancel

    static func action(for event: UserEvent) -> Self? {
        switch event {
        case .fill(ScreenView.name, let text): .typed(text)
        case .choose(let field, let options): .chose(field, options)
        case .tap(ScreenView.archive): .archive(true)
        case .tap(ScreenView.unarchive): .archive(false)
        case .tap(.cancel), .tap(.back), .back, .cancel: .cancel
        default: nil
        }
    }
}
