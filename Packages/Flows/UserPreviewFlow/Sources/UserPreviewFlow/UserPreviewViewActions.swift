import FlowKit

/// What the user can do on a friend's preview.
enum UserPreviewAction: ViewAction {
    typealias ScreenView = UserPreviewView

    case picked(ElementID)
    case addExpense
    case settleUp
    case older
    case newer
    case remove
    case block
    case rename
    case nameChanged(String)
    case saveName
    case link
    case linkHowChosen(UserPreviewViewState.LinkHow)
    case linkValueChanged(String)
    case find
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
        case .tap(ScreenView.rename): .rename
        case .tap(ScreenView.saveName): .saveName
        case .tap(ScreenView.addExpense): .addExpense
        case .tap(ScreenView.settleUp): .settleUp
        case .tap(ScreenView.older): .older
        case .tap(ScreenView.newer): .newer
        case .tap(ScreenView.remove): .remove
        case .tap(ScreenView.block): .block
        case .tap(ScreenView.link): .link
        case .tap(ScreenView.find): .find
        case .tap(.back), .back: .back
        case .cancel: .cancel
        case .refresh: .refresh
        default: nil
        }
    }
}
