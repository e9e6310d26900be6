import Accounts
import FlowKit
import FlowTestSupport
import QrPreviewFlow
import Testing

@Suite("QrPreviewFlow")
struct QrPreviewFlowTests {
    let fixture = Fixture()

    @Test("the friend code as a QR code and as text; back closes it, Ctrl-D cancels it", arguments: [
        (UserEvent.tap("back"), QrPreviewFlow.FlowResult.closed), (.back, .closed), (.cancel, .cancelled),
    ])
    func shows(event: UserEvent, expected: QrPreviewFlow.FlowResult) async throws {
        let user = try await fixture.existingUser(signedIn: true)
        let flow = FlowTest { router in QrPreviewFlow(user: user, router: router) }
        await flow.expectSnapshot("""
            == Your friend code == [qr-preview]
            A friend scans this code with their phone, or types \(user.friendCode) to add you.
              QR code of \(user.friendCode)
              Actions: Back (back, cancel)
            """)
        #expect(await flow.expectScreen("qr-preview")?.figures == [.qrCode(user.friendCode.description)])
        await flow.send(event)
        await flow.expectResult(expected)
    }
}
