// swift-tools-version: 6.0
import PackageDescription

// One user path. Its only public symbol is the flow actor (with its nested result type).
let package = Package(
    name: "AccountFlow",
    products: [
        .library(name: "AccountFlow", targets: ["AccountFlow"]),
    ],
    dependencies: [
        .package(path: "../../FlowKit"),
        .package(path: "../../Domain/Primitives"),
        .package(path: "../../Domain/Accounts"),
        .package(path: "../../Domain/Preferences"),
        .package(path: "../UpdateDisplayNameFlow"),
        .package(path: "../UpdateEmailFlow"),
        .package(path: "../UpdatePasswordFlow"),
        .package(path: "../UpdateAvatarFlow"),
        .package(path: "../QrPreviewFlow"),
        .package(path: "../SessionsFlow"),
        .package(path: "../VerifyEmailFlow"),
    ],
    targets: [
        .target(
            name: "AccountFlow",
            dependencies: [
                .product(name: "FlowKit", package: "FlowKit"),
                .product(name: "Primitives", package: "Primitives"),
                .product(name: "Accounts", package: "Accounts"),
                .product(name: "Preferences", package: "Preferences"),
                .product(name: "UpdateDisplayNameFlow", package: "UpdateDisplayNameFlow"),
                .product(name: "UpdateEmailFlow", package: "UpdateEmailFlow"),
                .product(name: "UpdatePasswordFlow", package: "UpdatePasswordFlow"),
                .product(name: "UpdateAvatarFlow", package: "UpdateAvatarFlow"),
                .product(name: "QrPreviewFlow", package: "QrPreviewFlow"),
                .product(name: "SessionsFlow", package: "SessionsFlow"),
                .product(name: "VerifyEmailFlow", package: "VerifyEmailFlow"),
            ]
        ),
    ]
)

for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("ExistentialAny")]
}
