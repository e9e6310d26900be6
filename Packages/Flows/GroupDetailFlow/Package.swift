// swift-tools-version: 6.0
import PackageDescription

// One user path. Its only public symbol is the flow actor (with its nested result type).
let package = Package(
    name: "GroupDetailFlow",
    products: [
        .library(name: "GroupDetailFlow", targets: ["GroupDetailFlow"]),
    ],
    dependencies: [
        .package(path: "../../FlowKit"),
        .package(path: "../../Domain/Primitives"),
        .package(path: "../../Domain/Rates"),
        .package(path: "../../Domain/Expenses"),
        .package(path: "../../Domain/Friends"),
        .package(path: "../../Domain/Groups"),
        .package(path: "../ExpenseDetailFlow"),
        .package(path: "../SettleUpFlow"),
        .package(path: "../EditGroupFlow"),
    ],
    targets: [
        .target(
            name: "GroupDetailFlow",
            dependencies: [
                .product(name: "FlowKit", package: "FlowKit"),
                .product(name: "Primitives", package: "Primitives"),
                .product(name: "Rates", package: "Rates"),
                .product(name: "Expenses", package: "Expenses"),
                .product(name: "Friends", package: "Friends"),
                .product(name: "Groups", package: "Groups"),
                .product(name: "ExpenseDetailFlow", package: "ExpenseDetailFlow"),
                .product(name: "SettleUpFlow", package: "SettleUpFlow"),
                .product(name: "EditGroupFlow", package: "EditGroupFlow"),
            ]
        ),
    ]
)

for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("ExistentialAny")]
}
