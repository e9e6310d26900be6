// swift-tools-version: 6.0
import PackageDescription

// One user path. Its only public symbol is the flow actor (with its nested result type).
let package = Package(
    name: "UserPreviewFlow",
    products: [
        .library(name: "UserPreviewFlow", targets: ["UserPreviewFlow"]),
    ],
    dependencies: [
        .package(path: "../../FlowKit"),
        .package(path: "../../Domain/Primitives"),
        .package(path: "../../Domain/Accounts"),
        .package(path: "../../Domain/Expenses"),
        .package(path: "../../Domain/Friends"),
        .package(path: "../../Domain/Groups"),
        .package(path: "../../Domain/Preferences"),
        .package(path: "../../Domain/Rates"),
        .package(path: "../../FlowSupport"),
    ],
    targets: [
        .target(
            name: "UserPreviewFlow",
            dependencies: [
                .product(name: "FlowKit", package: "FlowKit"),
                .product(name: "Primitives", package: "Primitives"),
                .product(name: "Accounts", package: "Accounts"),
                .product(name: "Expenses", package: "Expenses"),
                .product(name: "Friends", package: "Friends"),
                .product(name: "Groups", package: "Groups"),
                .product(name: "Preferences", package: "Preferences"),
                .product(name: "Rates", package: "Rates"),
                .product(name: "FormFields", package: "FlowSupport"),
            ]
        ),
    ]
)

for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("ExistentialAny")]
}
