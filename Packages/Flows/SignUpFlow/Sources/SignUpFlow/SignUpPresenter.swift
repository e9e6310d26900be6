import FlowKit

/// Creates the sign-up View and puts it on show through the router.
struct SignUpPresenter: Presenter {
    let router: AppRouter

    func present(_ state: SignUpViewState) async -> SignUpViewActions {
        let connection = ScreenConnection(router: router, view: SignUpView())
        await connection.present(state)
        return SignUpViewActions(connection: connection)
    }

    func dismiss() async {
        await router.dismiss(SignUpView.screenID)
    }
}
