/// A screen that is one form: fields the user types into, one action that sends them, and a
/// way out (and, at most, a few actions of its own, such as starting a child on the way). Its actions are a ``FormAction`` and its flow runs it with
/// ``ScreenPresenter/runForm(_:isolation:send:)``.
public protocol FormView: View {
    /// The action that sends the form.
    static var send: ElementID { get }
}

extension FormView {
    /// The form's screen: its fields, the action that sends it (labelled `send`), any `actions`
    /// of its own and the way out; its status is `phase`'s, with `busy` while the form is at work,
    /// or else `notice`.
    public func form(
        _ title: String, text: [String], fields: [Field], send: String, actions: [Action] = [], phase: Phase, busy: String,
        notice: String? = nil
    ) -> Screen {
        Screen(
            id: Self.screenID, title: title, text: text, fields: fields,
            actions: [Action(id: Self.send, label: send, role: .primary)] + actions + [.cancel],
            status: phase.status(busy: busy) ?? notice.map(ScreenStatus.notice)
        )
    }
}

/// What the user can do on a ``FormView``'s screen: type into a field, send the form, tap one of
/// its other actions, or leave.
public enum FormAction<ScreenView: FormView>: ViewAction {
    /// A field as typed: which, and its text.
    case typed(ElementID, String)
    /// A choice made: which field, and the options now chosen.
    case chosen(ElementID, [ElementID])
    case send
    /// Another action on the screen.
    case tapped(ElementID)
    case cancel

    /// A form's plain taps (if its View declares any) are among its other actions.
    public static func tapped(_ tap: ScreenView.Tap) -> Self {
        .tapped(tap.id)
    }

    public static func action(for event: UserEvent) -> Self? {
        switch event {
        case .fill(let field, let text): .typed(field, text)
        case .choose(let field, let options): .chosen(field, options)
        case .tap(ScreenView.send): .send
        case .tap(.cancel), .back, .cancel: .cancel
        case .tap(let action): .tapped(action)
        default: nil
        }
    }
}

/// The ViewModel of a ``FormView``: it takes what is typed field by field, checks the whole form
/// before it is sent, and shows the service at work and its refusal.
public protocol FormViewModel: SubmittingViewModel {
    /// A field as typed now, checked as it stands.
    mutating func typed(_ field: ElementID, _ text: String)
    /// A choice field as chosen now (a form of text fields only has none).
    mutating func chose(_ field: ElementID, _ options: [ElementID])
    /// Checks every field (an untouched one too); true when the form can be sent.
    mutating func checkAll() -> Bool
}

extension FormViewModel {
    public mutating func chose(_ field: ElementID, _ options: [ElementID]) {}
}

extension ScreenPresenter {
    /// Runs a form until the service takes it or the user leaves: every typed field goes to the
    /// ViewModel; a send that passes ``FormViewModel/checkAll()`` goes to `send`, whose refusal
    /// the ViewModel shows before the user goes on; another action goes to `tapped`. The
    /// service's answer, or nil when the user left.
    ///
    /// A form flow's whole `perform()` is its other form, ``runForm(_:isolation:ending:send:tapped:)``.
    public func runForm<Form: FormView, Model: FormViewModel, Value>(
        _ model: Model,
        isolation: isolated (any Actor)? = #isolation,
        send: (Model) async throws(Model.Failure) -> Value,
        tapped: (ElementID, inout Model) async -> Void = { _, _ in }
    ) async -> Value? where Action == FormAction<Form>, Model.ViewState == Form.ViewState {
        var model = model
        return await run(model.state) { action, view -> Value?? in
            switch action {
            case .typed(let field, let text):
                model.typed(field, text)
            case .chosen(let field, let options):
                model.chose(field, options)
            case .send:
                guard model.checkAll() else { break }
                if let value = await view.submit(&model, send) { return .some(value) }
            case .tapped(let action):
                await tapped(action, &model)
            case .cancel:
                return .some(nil)
            }
            return nil
        }
    }

    /// Runs a form that is the flow's whole path, as ``runForm(_:isolation:send:tapped:)`` does,
    /// and ends the flow: with `ending` of the service's answer, or ``FlowOutcome/cancelled``
    /// when the user left. A form flow's whole `perform()`:
    ///
    /// ```swift
    /// await presenter.runForm(UpdateEmailViewModel(current: user.email.value), ending: FlowResult.changed) { model throws(AccountsError) in
    ///     try await dependencies.accounts.changeEmail(to: model.form.email, password: model.form.password, of: user.id)
    /// }
    /// ```
    public func runForm<Form: FormView, Model: FormViewModel, Value, Outcome: FlowOutcome>(
        _ model: Model,
        isolation: isolated (any Actor)? = #isolation,
        ending: (Value) -> Outcome,
        send: (Model) async throws(Model.Failure) -> Value,
        tapped: (ElementID, inout Model) async -> Void = { _, _ in }
    ) async -> Outcome where Action == FormAction<Form>, Model.ViewState == Form.ViewState {
        await runForm(model, isolation: isolation, send: send, tapped: tapped).map(ending) ?? .cancelled
    }
}
