import FlowKit

/// What the user can do on a friend's preview.
enum UserPreviewAction: ViewAction {
    typealias ScreenView = UserPreviewView

    case picked(ElementID)
    case tapped(ScreenView.Tap)
    case nameChanged(String)
    case linkHowChosen(UserPreviewViewState.LinkHow)
    case linkValueChanged(String)
    /// Read again what the screen shows: it may have changed elsewhere.
    case refresh
    case back
    case cancel

    static func action(for event: UserEvent) -> Self? {
        switch event {
        case .choose(ScreenView.person, let ids): ids.first.map(Self.picked)
        case .choose(ScreenView.how, let ids):
            ids.first.flatMap { UserPreviewViewState.LinkHow(rawValue: $0.rawValue) }.map(Self.linkHowChosen)
        case .fill(ScreenView.value, let value): .linkValueChanged(value)
        case .fill(ScreenView.name, let name): .nameChanged(name)
        case .tap(.back), .back: .back
        case .cancel: .cancel
        case .refresh: .refresh
        default: nil
        }
    }
}
