import FlowKit

/// Creates the sign-in View and puts it on show through the router.
struct SignInPresenter: Presenter {
    let router: AppRouter

    func present(_ state: SignInViewState) async -> SignInViewActions {
        let connection = ScreenConnection(router: router, view: SignInView())
        await connection.present(state)
        return SignInViewActions(connection: connection)
    }

    func dismiss() async {
        await router.dismiss(SignInView.screenID)
    }
}
