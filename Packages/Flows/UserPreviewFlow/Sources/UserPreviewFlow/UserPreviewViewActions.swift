import FlowKit

/// What the user can do on a friend's preview.
enum UserPreviewAction: Sendable, Equatable {
    case picked(ElementID)
    case addExpense
    case settleUp
    case older
    case newer
    case remove
    case link
    case linkHowChosen(UserPreviewViewState.LinkHow)
    case linkValueChanged(String)
    case find
    case back
    case cancel
}

/// Carries the preview's states to the screen and the user's events back.
struct UserPreviewViewActions: ViewActions {
    let connection: ScreenConnection<UserPreviewView>

    static func action(for event: UserEvent) -> UserPreviewAction? {
        switch event {
        case .choose(UserPreviewView.person, let ids): ids.first.map(UserPreviewAction.picked)
        case .choose(UserPreviewView.how, let ids):
            ids.first.flatMap { UserPreviewViewState.LinkHow(rawValue: $0.rawValue) }.map(UserPreviewAction.linkHowChosen)
        case .fill(UserPreviewView.value, let value): .linkValueChanged(value)
        case .tap(UserPreviewView.addExpense): .addExpense
        case .tap(UserPreviewView.settleUp): .settleUp
        case .tap(UserPreviewView.older): .older
        case .tap(UserPreviewView.newer): .newer
        case .tap(UserPreviewView.remove): .remove
        case .tap(UserPreviewView.link): .link
        case .tap(UserPreviewView.find): .find
        case .tap(UserPreviewView.back), .back: .back
        case .cancel: .cancel
        case .fill, .edit, .choose, .tap: nil
        }
    }
}
