// swift-tools-version: 6.0
import PackageDescription

// Mail out: a mailer interface and its two drivers, an outbox folder (one machine, the tests)
// and a sendmail-compatible program (msmtp, the system's sendmail). A general tool: the accounts
// send verification codes through it.
let package = Package(
    name: "Mail",
    products: [
        .library(name: "Mail", targets: ["Mail"]),
    ],
    targets: [
        .target(name: "Mail"),
    ]
)

for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("ExistentialAny")]
}
