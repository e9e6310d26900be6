import FlowKit

/// Creates the welcome View and puts it on show through the router.
struct UnauthenticatedPresenter: Presenter {
    let router: AppRouter

    func present(_ state: UnauthenticatedViewState) async -> UnauthenticatedViewActions {
        let connection = ScreenConnection(router: router, view: UnauthenticatedView())
        await connection.present(state)
        return UnauthenticatedViewActions(connection: connection)
    }

    func dismiss() async {
        await router.dismiss(UnauthenticatedView.screenID)
    }
}
