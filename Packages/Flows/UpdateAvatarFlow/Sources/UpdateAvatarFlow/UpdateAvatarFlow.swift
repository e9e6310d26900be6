import Accounts
import FlowKit
import Primitives

/// Changes the user's avatar: a PNG or JPEG picture from a file, their initials on a colour, or
/// none. A picture is read and checked before anything is written.
public actor UpdateAvatarFlow: InventoriedFlow {
    /// How the change ended.
    public enum FlowResult: FlowOutcome {
        /// The avatar is changed; what it is now.
        case changed(Avatar)
        /// The user left; nothing was written.
        case cancelled

        public func encodeDetails(to container: inout KeyedEncodingContainer<OutcomeCodingKey>) throws {
            // What kind of avatar, not the picture's bytes.
            if case .changed(let avatar) = self { try container.encode(avatar.summary, forKey: "avatar") }
        }
    }

    /// What the flow needs from the app.
    public protocol Dependencies: Sendable {
        var accounts: any AccountsService { get }
        var files: any UserFiles { get }
    }

    /// Every screen, action and message this flow can show, for coverage reports.
    public static var inventory: FlowInventory { FlowInventory(drawing: UpdateAvatarView(), for: UpdateAvatarViewModel.examples) }

    private let user: User
    private let dependencies: any Dependencies
    private let presenter: ScreenPresenter<UpdateAvatarAction>

    public init(user: User, dependencies: any Dependencies, router: AppRouter) {
        self.user = user
        self.dependencies = dependencies
        presenter = ScreenPresenter(router: router)
    }

    public func perform() async -> FlowResult {
        var model = UpdateAvatarViewModel(initials: user.displayName.initials)
        do throws(AccountsError) {
            model.loaded(try await dependencies.accounts.avatar(of: user.id))
        } catch {
            model.failed(error)
        }
        return await presenter.run(model.state) { action, view in
            switch action {
            case .kindChosen(let kind):
                model.kindChosen(kind)
            case .pathChanged(let path):
                model.pathChanged(path)
            case .colourChosen(let colour):
                model.colourChosen(colour)
            case .tapped(.save):
                guard let avatar = chosen(&model) else { break }
                let changed: Void? = await view.submit(&model) { _ throws(AccountsError) in
                    try await dependencies.accounts.changeAvatar(to: avatar, of: user.id)
                }
                if changed != nil { return .changed(avatar) }
            case .cancel:
                return .cancelled
            }
            return nil
        }
    }

    /// The avatar the form describes, the picture read and checked; nil with the form's errors
    /// set when it describes none yet.
    private func chosen(_ model: inout UpdateAvatarViewModel) -> Avatar? {
        switch model.state.kind {
        case .none:
            return Avatar.none
        case .initials:
            return .initials(model.colour)
        case .picture:
            do throws(UserFileProblem) {
                let bytes = try dependencies.files.contents(of: model.state.path, atMost: AvatarImage.maximumBytes)
                do throws(AvatarProblem) {
                    return .image(try AvatarImage(bytes: bytes))
                } catch {
                    model.pathRefused(error.message)
                }
            } catch {
                model.pathRefused(error.message)
            }
            return nil
        }
    }
}
