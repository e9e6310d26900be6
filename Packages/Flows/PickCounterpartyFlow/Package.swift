// swift-tools-version: 6.0
import PackageDescription

// One user path. Its only public symbol is the flow actor (with its nested result type).
let package = Package(
    name: "PickCounterpartyFlow",
    products: [
        .library(name: "PickCounterpartyFlow", targets: ["PickCounterpartyFlow"]),
    ],
    dependencies: [
        .package(path: "../../FlowKit"),
        .package(path: "../../Domain/Primitives"),
        .package(path: "../../Domain/Expenses"),
        .package(path: "../../Domain/Friends"),
        .package(path: "../AddContactFlow"),
    ],
    targets: [
        .target(
            name: "PickCounterpartyFlow",
            dependencies: [
                .product(name: "FlowKit", package: "FlowKit"),
                .product(name: "Primitives", package: "Primitives"),
                .product(name: "Expenses", package: "Expenses"),
                .product(name: "Friends", package: "Friends"),
                .product(name: "AddContactFlow", package: "AddContactFlow"),
            ]
        ),
    ]
)

for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("ExistentialAny")]
}
