import FlowKit

/// Creates the home View and puts it on show through the router.
struct AuthenticatedPresenter: Presenter {
    let router: AppRouter

    func present(_ state: AuthenticatedViewState) async -> AuthenticatedViewActions {
        let connection = ScreenConnection(router: router, view: AuthenticatedView())
        await connection.present(state)
        return AuthenticatedViewActions(connection: connection)
    }

    func dismiss() async {
        await router.dismiss(AuthenticatedView.screenID)
    }
}
