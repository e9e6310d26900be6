// swift-tools-version: 6.0
import PackageDescription

// The Groups area: `Groups` is the abstract module (groups, their members and the service
// protocol); `GroupsLive` implements the service on the GroupsData abstraction, checking whom a
// user may add through Expenses' people directory and reading a group's balances from the
// ledger (Expenses' abstract module), which in turn asks it who is in a group.
let package = Package(
    name: "Groups",
    products: [
        .library(name: "Groups", targets: ["Groups"]),
        .library(name: "GroupsLive", targets: ["GroupsLive"]),
    ],
    dependencies: [
        .package(path: "../Primitives"),
        .package(path: "../Expenses"),
        .package(path: "../../Data/GroupsData"),
    ],
    targets: [
        // MARK: - Abstract
        .target(name: "Groups", dependencies: [.product(name: "Primitives", package: "Primitives")]),

        // MARK: - Implementation
        .target(
            name: "GroupsLive",
            dependencies: [
                "Groups",
                .product(name: "Primitives", package: "Primitives"),
                .product(name: "Expenses", package: "Expenses"),
                .product(name: "GroupsData", package: "GroupsData"),
            ]
        ),
    ]
)

for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("ExistentialAny")]
}
