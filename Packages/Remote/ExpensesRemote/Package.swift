// swift-tools-version: 6.0
import PackageDescription

// The Expenses service over HTTP, from flows-server (`flows --server URL`): a package of its own,
// so that only what talks to a server resolves the HTTP client and the contract.
let package = Package(
    name: "ExpensesRemote",
    products: [
        .library(name: "ExpensesRemote", targets: ["ExpensesRemote"]),
    ],
    dependencies: [
        .package(path: "../../Domain/Primitives"),
        .package(path: "../../Domain/Expenses"),
        .package(path: "../../Infrastructure/FlowsAPI"),
        .package(path: "../PrimitivesRemote"),
    ],
    targets: [
        .target(
            name: "ExpensesRemote",
            dependencies: [
                .product(name: "Expenses", package: "Expenses"),
                .product(name: "Primitives", package: "Primitives"),
                .product(name: "FlowsAPI", package: "FlowsAPI"),
                .product(name: "FlowsAPIClient", package: "FlowsAPI"),
                .product(name: "FlowsWire", package: "FlowsAPI"),
                .product(name: "PrimitivesRemote", package: "PrimitivesRemote"),
            ]
        ),
    ]
)

for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("ExistentialAny")]
}
