import Accounts
import FlowKit

/// What the user can do on the avatar form.
enum UpdateAvatarAction: Sendable, Equatable {
    case kindChosen(UpdateAvatarViewState.Kind)
    case pathChanged(String)
    case colourChosen(AvatarColour)
    case save
    case cancel
}

/// Carries avatar-form states to the screen and the user's events back.
struct UpdateAvatarViewActions: ViewActions {
    let connection: ScreenConnection<UpdateAvatarView>

    static func action(for event: UserEvent) -> UpdateAvatarAction? {
        switch event {
        case .choose(UpdateAvatarView.kind, let options):
            options.first.flatMap { UpdateAvatarViewState.Kind(rawValue: $0.rawValue) }.map(UpdateAvatarAction.kindChosen)
        case .choose(UpdateAvatarView.colour, let options):
            options.first.flatMap { AvatarColour(rawValue: $0.rawValue) }.map(UpdateAvatarAction.colourChosen)
        case .fill(UpdateAvatarView.path, let value): .pathChanged(value)
        case .tap(UpdateAvatarView.save): .save
        case .tap(UpdateAvatarView.cancel), .back, .cancel: .cancel
        case .fill, .edit, .choose, .tap: nil
        }
    }
}
