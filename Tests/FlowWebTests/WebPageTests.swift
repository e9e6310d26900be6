import FlowKit
import Foundation
import Testing

@testable import FlowWeb

/// Screens as pages: every field labelled, errors tied to their fields, every value escaped.
@Suite struct WebPageTests {
    let stamp = WebPage.Stamp(csrf: "token-1", version: 3)

    @Test func formFieldsAreLabelledAndErrorsTiedToThem() {
        let screen = Screen(
            id: "sign-in", title: "Sign in", text: ["Welcome back."],
            fields: [
                Field(id: "email", label: "Email", input: .text("ada@"), hint: "name@example.com", error: "Enter an email address."),
                Field(id: "password", label: "Password", input: .secret(isSet: true)),
            ],
            actions: [Action(id: "sign-in", label: "Sign in", role: .primary), .cancel],
            status: .error("wrong email or password")
        )
        let html = WebPage.html(for: screen, stamp: stamp)
        #expect(html.contains(#"<h1>Sign in</h1>"#))
        #expect(html.contains(#"<label for="f-email">Email</label>"#))
        #expect(html.contains(#"<input id="f-email" name="f:email" type="email" value="ada@" autocomplete="email" aria-describedby="f-email-hint f-email-error" aria-invalid="true">"#))
        #expect(html.contains(#"<p class="field-error" id="f-email-error">Enter an email address.</p>"#))
        #expect(html.contains(#"<p class="hint" id="f-email-hint">name@example.com</p>"#))
        // A secret is never written into the page, set or not.
        #expect(html.contains(#"<input id="f-password" name="f:password" type="password" value="" autocomplete="current-password">"#))
        #expect(html.contains(#"<p class="error" role="alert" id="screen-error">wrong email or password</p>"#))
        #expect(html.contains(#"<input type="hidden" name="csrf" value="token-1">"#))
        #expect(html.contains(#"<input type="hidden" name="version" value="3">"#))
        // Enter sends the primary action: the form's first button is a hidden copy of it.
        #expect(html.contains(#"<button type="submit" name="do" value="sign-in" class="default" tabindex="-1" aria-hidden="true">"#))
        #expect(html.contains(#"<button type="submit" name="do" value="sign-in" class="primary">Sign in</button>"#))
        #expect(html.contains(#"<button type="submit" name="do" value="cancel" class="leave" formnovalidate>Cancel</button>"#))
    }

    @Test func everyValueIsEscaped() {
        let attack = #"<script>alert("x")</script> & 'quoted' &amp;"#
        let screen = Screen(
            id: "expense-detail", title: attack, text: [attack],
            fields: [
                Field(id: "note", label: attack, input: .text(attack), hint: attack, error: attack),
                Field(id: "who", label: "Who", input: .choice([Choice(id: "a", label: attack, detail: attack)], selected: nil)),
            ],
            actions: [Action(id: "save", label: attack, role: .primary)],
            status: .notice(attack), breadcrumb: [attack], tabs: [Tab(id: "t", label: attack)], footer: [attack]
        )
        let html = WebPage.html(for: screen, stamp: stamp, notice: attack)
        #expect(!html.contains("<script>alert"))
        #expect(!html.contains(#"value="<script"#))
        #expect(!html.contains("'quoted'"))
        // An entity typed by a user is shown as typed, not read as one.
        #expect(html.contains("&amp;amp;"))
        #expect(html.contains("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quoted&#39;"))
        // The only script is the page's own file.
        #expect(html.components(separatedBy: "<script").count == 2)
        #expect(html.contains(#"<script src="/web/flows.js" defer></script>"#))
    }

    @Test func choicesAreFieldsetsAndTabsNavigation() {
        let screen = Screen(
            id: "friends", title: "Friends",
            fields: [
                Field(id: "friend", label: "Open", input: .choice([Choice(id: "bob", label: "Bob Stone", detail: "bob@example.com")], selected: "bob")),
                Field(id: "people", label: "Who", input: .multiChoice([Choice(id: "a", label: "Ada"), Choice(id: "b", label: "Bob")], selected: ["b"])),
                Field(id: "sure", label: "Sure?", input: .confirm(nil)),
                Field(id: "parts", label: "Parts", input: .table([TableRow(id: "bob", label: "Bob", value: "5", note: "→ 5.00 EUR")], unit: "EUR", decimals: 2)),
                Field(id: "currency", label: "Currency", input: .choice((0...Choice.longList).map { Choice(id: ElementID("c\($0)"), label: "C\($0)") }, selected: "c2")),
            ],
            tabs: [Tab(id: "expenses", label: "Expenses", isSelected: true), Tab(id: "friends", label: "Friends")]
        )
        let html = WebPage.html(for: screen, stamp: stamp)
        #expect(html.contains(#"<fieldset id="f-friend"><legend>Open</legend>"#))
        #expect(html.contains(#"<button type="submit" name="choose:friend" value="bob" formnovalidate aria-pressed="true">Bob Stone <span class="detail">bob@example.com</span></button>"#))
        #expect(html.contains(#"<input type="checkbox" name="m:people" value="b" checked> Bob"#))
        #expect(html.contains(#"<input type="hidden" name="present" value="m:people">"#))
        #expect(html.contains(#"<button type="submit" name="choose:sure" value="yes" formnovalidate aria-pressed="false">Yes</button>"#))
        #expect(html.contains(#"<th scope="row"><label for="f-parts.bob">Bob</label></th><td><input id="f-parts.bob" name="f:parts.bob" value="5""#))
        #expect(html.contains(#"<select id="f-currency" name="c:currency"><option value="c0">C0</option>"#))
        #expect(html.contains(#"<option value="c2" selected>C2</option>"#))
        #expect(html.contains(#"<nav aria-label="Tabs" class="tabs">"#))
        #expect(html.contains(#"<button type="submit" name="do" value="expenses" formnovalidate aria-current="page">Expenses</button>"#))
    }

    @Test func moneyGoingEitherWayIsMarkedBeyondColour() {
        let screen = Screen(
            id: "expenses", title: "Expenses", text: ["Bob Stone owes you 5.00 EUR; you owe Cy Young 2.00 EUR."],
            tones: [TonedPhrase("owes you 5.00 EUR", .positive), TonedPhrase("you owe Cy Young 2.00 EUR", .negative)]
        )
        let html = WebPage.html(for: screen, stamp: stamp)
        #expect(html.contains(
            #"<p class="text">Bob Stone <strong class="owed"><span class="visually-hidden">(owed to you) </span>owes you 5.00 EUR</strong>; <strong class="owing"><span class="visually-hidden">(you owe) </span>you owe Cy Young 2.00 EUR</strong>.</p>"#
        ))
    }

    @Test func figuresAreImagesWithAlternatives() throws {
        let screen = Screen(id: "account", title: "Account", figures: [.qrCode("FLOWS-CODE"), .initials("AL", colour: "teal")])
        let html = WebPage.html(for: screen, stamp: stamp)
        #expect(html.contains(#"alt="QR code of FLOWS-CODE""#))
        #expect(html.contains(#"<span class="badge colour-teal" role="img" aria-label="Avatar AL">AL</span>"#))
        let prefix = #"<img src="data:image/svg+xml;base64,"#
        let start = try #require(html.range(of: prefix))
        let encoded = html[start.upperBound...].prefix { $0 != "\"" }
        let svg = String(decoding: try #require(Data(base64Encoded: String(encoded))), as: UTF8.self)
        #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 29 29\""))
    }

    @Test func themesAndBusyPages() {
        let screen = Screen(id: "home", title: "Flows", status: .busy("Signing in"))
        let html = WebPage.html(for: screen, stamp: stamp, theme: "high-contrast", refresh: 1)
        #expect(html.contains(#"<html lang="en" data-theme="high-contrast">"#))
        #expect(html.contains(#"<meta http-equiv="refresh" content="1">"#))
        #expect(html.contains(#"<p class="busy">Signing in…</p>"#))
        #expect(WebPage.html(for: screen, stamp: stamp).contains(#"data-theme="auto""#))
    }
}
