// swift-tools-version: 6.0
import PackageDescription

// One user path. Its only public symbol is the flow actor (with its nested result type).
let package = Package(
    name: "GroupsFlow",
    products: [
        .library(name: "GroupsFlow", targets: ["GroupsFlow"]),
    ],
    dependencies: [
        .package(path: "../../FlowKit"),
        .package(path: "../../Domain/Primitives"),
        .package(path: "../../Domain/Expenses"),
        .package(path: "../../Domain/Groups"),
        .package(path: "../CreateGroupFlow"),
        .package(path: "../GroupDetailFlow"),
    ],
    targets: [
        .target(
            name: "GroupsFlow",
            dependencies: [
                .product(name: "FlowKit", package: "FlowKit"),
                .product(name: "Primitives", package: "Primitives"),
                .product(name: "Expenses", package: "Expenses"),
                .product(name: "Groups", package: "Groups"),
                .product(name: "CreateGroupFlow", package: "CreateGroupFlow"),
                .product(name: "GroupDetailFlow", package: "GroupDetailFlow"),
            ]
        ),
    ]
)

for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("ExistentialAny")]
}
