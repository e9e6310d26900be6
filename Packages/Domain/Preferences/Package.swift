// swift-tools-version: 6.0
import PackageDescription

// The Preferences area: `Preferences` is the abstract module (a user's stored preferences and
// the service protocol); `PreferencesLive` implements the service on the PreferencesData
// abstraction.
let package = Package(
    name: "Preferences",
    products: [
        .library(name: "Preferences", targets: ["Preferences"]),
        .library(name: "PreferencesLive", targets: ["PreferencesLive"]),
    ],
    dependencies: [
        .package(path: "../Primitives"),
        .package(path: "../../Data/PreferencesData"),
    ],
    targets: [
        // MARK: - Abstract
        .target(name: "Preferences", dependencies: [.product(name: "Primitives", package: "Primitives")]),

        // MARK: - Implementation
        .target(
            name: "PreferencesLive",
            dependencies: [
                "Preferences",
                .product(name: "Primitives", package: "Primitives"),
                .product(name: "PreferencesData", package: "PreferencesData"),
            ]
        ),
    ]
)

for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("ExistentialAny")]
}
