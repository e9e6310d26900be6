// swift-tools-version: 6.0
import PackageDescription

// The Expenses area: `Expenses` is the abstract module (entities, the rules on their values such
// as splitting an amount, and the service protocol); `ExpensesLive` implements the service on
// the ExpensesData abstraction.
let package = Package(
    name: "Expenses",
    products: [
        .library(name: "Expenses", targets: ["Expenses"]),
        .library(name: "ExpensesLive", targets: ["ExpensesLive"]),
    ],
    dependencies: [
        .package(path: "../Primitives"),
        .package(path: "../../Data/ExpensesData"),
    ],
    targets: [
        // MARK: - Abstract
        .target(name: "Expenses", dependencies: [.product(name: "Primitives", package: "Primitives")]),

        // MARK: - Implementation
        .target(
            name: "ExpensesLive",
            dependencies: [
                "Expenses",
                .product(name: "Primitives", package: "Primitives"),
                .product(name: "ExpensesData", package: "ExpensesData"),
            ]
        ),
    ]
)

for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("ExistentialAny")]
}
