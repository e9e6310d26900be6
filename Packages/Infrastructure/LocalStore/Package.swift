// swift-tools-version: 6.0
import PackageDescription

// The embedded store's plumbing: where the store lives, opening and migrating it, private files.
// It depends on GRDB alone, so a tool that embeds the local services resolves nothing more.
let package = Package(
    name: "LocalStore",
    products: [
        .library(name: "LocalStore", targets: ["LocalStore"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        .target(name: "LocalStore", dependencies: [.product(name: "GRDB", package: "GRDB.swift")]),
    ]
)

for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("ExistentialAny")]
}
