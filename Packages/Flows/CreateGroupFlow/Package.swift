// swift-tools-version: 6.0
import PackageDescription

// One user path. Its only public symbol is the flow actor (with its nested result type).
let package = Package(
    name: "CreateGroupFlow",
    products: [
        .library(name: "CreateGroupFlow", targets: ["CreateGroupFlow"]),
    ],
    dependencies: [
        .package(path: "../../FlowKit"),
        .package(path: "../../FlowSupport"),
        .package(path: "../../Domain/Primitives"),
        .package(path: "../../Domain/Friends"),
        .package(path: "../../Domain/Groups"),
        .package(path: "../../Domain/Preferences"),
        .package(path: "../AddContactFlow"),
    ],
    targets: [
        .target(
            name: "CreateGroupFlow",
            dependencies: [
                .product(name: "FlowKit", package: "FlowKit"),
                .product(name: "FormFields", package: "FlowSupport"),
                .product(name: "Primitives", package: "Primitives"),
                .product(name: "Friends", package: "Friends"),
                .product(name: "Groups", package: "Groups"),
                .product(name: "Preferences", package: "Preferences"),
                .product(name: "AddContactFlow", package: "AddContactFlow"),
            ]
        ),
    ]
)

for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("ExistentialAny")]
}
