import FlowKit

/// Draws the new contact's form. Its identifiers are the contract scripts use.
struct AddContactView: FormView {
    static let screenID: ScreenID = "add-contact"
    static let name: ElementID = "name"
    static let email: ElementID = "email"
    static let send: ElementID = "add"

    func screen(for state: AddContactViewState) -> Screen {
        form(
            "Add a new contact", text: ["Someone without an account: they share expenses like anyone, and can link an account later."],
            fields: [
                Field(id: Self.name, label: "Name", entry: state.name, hint: "1 to 50 characters"),
                Field(id: Self.email, label: "Their email", entry: state.email, hint: "optional: links them when they sign up", isOptional: true),
            ],
            send: "Add contact",
            phase: state.phase, busy: "Adding"
        )
    }
}
