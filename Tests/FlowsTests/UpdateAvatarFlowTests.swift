import Accounts
import FlowKit
import FlowTestSupport
import Foundation
import Testing
import UpdateAvatarFlow

/// A leaf flow: each kind of avatar, each refusal of a file, and a store that fails.
@Suite("UpdateAvatarFlow")
struct UpdateAvatarFlowTests {
    let fixture = Fixture()
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("avatars-\(UUID().uuidString)")

    private func start(_ user: User, _ dependencies: (any UpdateAvatarFlow.Dependencies)? = nil) -> FlowTest {
        FlowTest { [fixture] router in UpdateAvatarFlow(user: user, dependencies: dependencies ?? fixture, router: router) }
    }

    private func file(_ name: String, _ bytes: [UInt8]) throws -> String {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    /// JPEG segments up to a frame header of the given size.
    private func jpeg(width: Int, height: Int) -> [UInt8] {
        [0xFF, 0xD8, 0xFF, 0xC0, 0x00, 0x11, 0x08, UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF),
         0x03, 0x01, 0x22, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11, 0x01, 0xFF, 0xD9]
    }

    @Test("a JPEG from a file is stored whole; the form said what the user had before")
    func picture() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let user = try await fixture.existingUser(signedIn: true)
        try await fixture.accounts.changeAvatar(to: .initials(.pink), of: user.id)
        let path = try file("me.jpg", jpeg(width: 64, height: 48))
        let flow = start(user)
        await flow.expectText("Now: initials on pink.")
        await flow.fill("path", path)
        await flow.expectError("path", nil)
        await flow.tap("save")
        let expected = try AvatarImage(bytes: jpeg(width: 64, height: 48))
        await flow.expectResult(UpdateAvatarFlow.FlowResult.changed(.image(expected)))
        #expect(try await fixture.accounts.avatar(of: user.id) == .image(expected))
    }

    @Test("a 2 MiB JPEG and a 5000-pixel-wide one are refused with their figures; nothing is written")
    func tooBig() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let user = try await fixture.existingUser(signedIn: true)
        let heavy = try file("heavy.jpg", jpeg(width: 64, height: 64) + Array(repeating: 0, count: 2 << 20))
        let wide = try file("wide.jpg", jpeg(width: 5000, height: 64))
        let flow = start(user)
        await flow.expectScreen("update-avatar")
        await flow.fill("path", heavy)
        await flow.skipScreen()
        await flow.tap("save")
        await flow.expectError("path", "\(heavy) is 2.1 MiB; at most 1 MiB is taken.")
        await flow.fill("path", wide)
        await flow.skipScreen()
        await flow.tap("save")
        await flow.expectError("path", "The picture is 5000 x 64 pixels; an avatar is at most 4096 x 4096.")
        await flow.cancel()
        await flow.expectResult(UpdateAvatarFlow.FlowResult.cancelled)
        #expect(try await fixture.accounts.avatar(of: user.id) == .none)
    }

    @Test("initials on a chosen colour, then none")
    func initialsThenNone() async throws {
        let user = try await fixture.existingUser(signedIn: true)
        let flow = start(user)
        await flow.expectScreen("update-avatar")
        await flow.choose("colour", "green")
        await flow.skipScreen()
        await flow.tap("save")
        await flow.expectResult(UpdateAvatarFlow.FlowResult.changed(.initials(.green)))
        #expect(try await fixture.accounts.avatar(of: user.id) == .initials(.green))
        let again = start(user)
        await again.expectText("Now: initials on green.")
        await again.choose("kind", "none")
        await again.skipScreen()
        await again.tap("save")
        await again.expectResult(UpdateAvatarFlow.FlowResult.changed(.none))
        #expect(try await fixture.accounts.avatar(of: user.id) == .none)
    }

    @Test("a store that fails shows its error on the screen")
    func storeFails() async throws {
        let user = try await fixture.existingUser(signedIn: true)
        let flow = start(user, Fixture.unavailable())
        await flow.expectError(nil, "The local store is unavailable: disk on fire")
        await flow.choose("kind", "none")
        await flow.skipScreen()
        await flow.tap("save")
        await flow.expectError(nil, "The local store is unavailable: disk on fire")
        await flow.back()
        await flow.expectResult(UpdateAvatarFlow.FlowResult.cancelled)
    }
}
