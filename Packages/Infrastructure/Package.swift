// swift-tools-version: 6.0
import PackageDescription

// Plumbing shared by data implementations: where the local store lives, opening it, private files.
let package = Package(
    name: "Infrastructure",
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
