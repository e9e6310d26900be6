// swift-tools-version: 6.0
import PackageDescription

// The Expenses area: `Expenses` is the abstract module (entities, the rules on their values such
// as splitting an amount, and the service protocols).
let package = Package(
    name: "Expenses",
    products: [
        .library(name: "Expenses", targets: ["Expenses"]),
    ],
    dependencies: [
        .package(path: "../Primitives"),
    ],
    targets: [
        // MARK: - Abstract
        .target(name: "Expenses", dependencies: [.product(name: "Primitives", package: "Primitives")]),
    ]
)

for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("ExistentialAny")]
}
