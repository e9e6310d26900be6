import Accounts
import FlowKit

/// What the user can do on the avatar form.
enum UpdateAvatarAction: ViewAction {
    typealias ScreenView = UpdateAvatarView

    case kindChosen(UpdateAvatarViewState.Kind)
    case pathChanged(String)
    case colourChosen(AvatarColour)
    case tapped(ScreenView.Tap)
    case cancel

    static func action(for event: UserEvent) -> Self? {
        switch event {
        case .choose(ScreenView.kind, let options):
            options.first.flatMap { UpdateAvatarViewState.Kind(rawValue: $0.rawValue) }.map(Self.kindChosen)
        case .choose(ScreenView.colour, let options):
            options.first.flatMap { AvatarColour(rawValue: $0.rawValue) }.map(Self.colourChosen)
        case .fill(ScreenView.path, let value): .pathChanged(value)
        case .tap(.cancel), .back, .cancel: .cancel
        default: nil
        }
    }
}
