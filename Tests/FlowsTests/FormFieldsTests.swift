import Accounts
import FlowKit
import FormFields
import Primitives
import Testing

@Suite("Form fields the flows share")
struct FormFieldsTests {
    @Test("a text entry keeps the text as typed and says what the domain type's rules find wrong")
    func checkedText() {
        #expect(TextEntry("ada@example.com", as: EmailAddress.self) == TextEntry("ada@example.com"))
        let refused = TextEntry("ada", as: EmailAddress.self)
        #expect(refused.text == "ada")
        #expect(refused.error != nil)
        #expect(EmailAddress.Problem.allMessages.contains(refused.error ?? ""))
        #expect(TextEntry("  ", as: DisplayName.self).error != nil)
    }

    @Test("a required secret refuses only nothing, with the form's message; the field it is shown in follows it, and never holds it")
    func requiredSecret() {
        var input = SecretInput(.required("Enter your password."))
        var shown = SecretEntry(isSet: true, error: "stale")
        input.typed("", shown: &shown)
        #expect(shown == SecretEntry(isSet: false, error: "Enter your password."))
        input.typed("short", shown: &shown)
        #expect(input.value == "short")
        #expect(shown == SecretEntry(isSet: true))
        input.refused("Wrong password.", shown: &shown)
        #expect(input.value == "")
        #expect(shown == SecretEntry(isSet: false, error: "Wrong password."))
        input.typed("again", shown: &shown)
        input.clear(shown: &shown)
        #expect(input.value == "" && shown == SecretEntry())
    }

    @Test("a new password is held to the domain's password rules")
    func newPassword() {
        var input = SecretInput(.newPassword)
        var shown = SecretEntry()
        input.typed("short", shown: &shown)
        #expect(shown.isSet)
        #expect(shown.error == Validation.message { () throws(PasswordRules.Problem) in try PasswordRules.check("short") })
        #expect(shown.error != nil)
        input.typed("correct horse battery", shown: &shown)
        #expect(shown == SecretEntry(isSet: true))
    }

    @Test("a field draws an entry: its text or whether a secret is set, and its error")
    func drawnFields() {
        let text = Field(id: "email", label: "Email", entry: TextEntry("ada", error: "No."), hint: "yours")
        #expect(text == Field(id: "email", label: "Email", input: .text("ada"), hint: "yours", error: "No."))
        let secret = Field(id: "password", label: "Password", entry: SecretEntry(isSet: true))
        #expect(secret == Field(id: "password", label: "Password", input: .secret(isSet: true)))
    }

    @Test("a day entry reads what people type against today, and says what is wrong in Day's words")
    func days() throws {
        let sunday = try Day("2026-11-22")
        #expect(DayEntry("today", today: sunday).day == sunday)
        #expect(DayEntry("mon", today: sunday).read == (try Day("2026-11-16")).withWeekday)
        #expect(DayEntry("2026-11-22", today: sunday).problem == nil)
        let wrong = DayEntry("someday", today: sunday)
        #expect(wrong.day == nil && wrong.read == nil)
        #expect(wrong.problem == Validation.message { () throws(Day.Problem) in _ = try Day(typed: "someday", today: sunday) })
        #expect(wrong.problem != nil)
    }
}
