import FlowKit

/// Creates the app's own View and puts it on show through the router.
struct AppPresenter: Presenter {
    let router: AppRouter

    func present(_ state: AppViewState) async -> AppViewActions {
        let connection = ScreenConnection(router: router, view: AppView())
        await connection.present(state)
        return AppViewActions(connection: connection)
    }

    func dismiss() async {
        await router.dismiss(AppView.screenID)
    }
}
