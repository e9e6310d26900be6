// swift-tools-version: 6.0
import PackageDescription

// One user path. Its only public symbol is the flow actor (with its nested result type).
let package = Package(
    name: "ExpensesFlow",
    products: [
        .library(name: "ExpensesFlow", targets: ["ExpensesFlow"]),
    ],
    dependencies: [
        .package(path: "../../FlowKit"),
        .package(path: "../../Domain/Primitives"),
        .package(path: "../../Domain/Expenses"),
        .package(path: "../../Domain/Friends"),
        .package(path: "../../Domain/Preferences"),
        .package(path: "../../Domain/Rates"),
        .package(path: "../SettleUpFlow"),
        .package(path: "../ExpenseDetailFlow"),
        .package(path: "../ReportsFlow"),
    ],
    targets: [
        .target(
            name: "ExpensesFlow",
            dependencies: [
                .product(name: "FlowKit", package: "FlowKit"),
                .product(name: "Primitives", package: "Primitives"),
                .product(name: "Expenses", package: "Expenses"),
                .product(name: "Friends", package: "Friends"),
                .product(name: "Preferences", package: "Preferences"),
                .product(name: "Rates", package: "Rates"),
                .product(name: "SettleUpFlow", package: "SettleUpFlow"),
                .product(name: "ExpenseDetailFlow", package: "ExpenseDetailFlow"),
                .product(name: "ReportsFlow", package: "ReportsFlow"),
            ]
        ),
    ]
)

for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("ExistentialAny")]
}
