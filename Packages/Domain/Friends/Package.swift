// swift-tools-version: 6.0
import PackageDescription

// The Friends area: `Friends` is the abstract module (friends, contacts and the service
// protocol); `FriendsLive` implements the service on the FriendsData abstraction, finding
// accounts through Accounts and balances through Expenses (their abstract modules).
let package = Package(
    name: "Friends",
    products: [
        .library(name: "Friends", targets: ["Friends"]),
        .library(name: "FriendsLive", targets: ["FriendsLive"]),
    ],
    dependencies: [
        .package(path: "../Primitives"),
        .package(path: "../Accounts"),
        .package(path: "../Expenses"),
        .package(path: "../../Data/FriendsData"),
    ],
    targets: [
        // MARK: - Abstract
        .target(name: "Friends", dependencies: [.product(name: "Primitives", package: "Primitives")]),

        // MARK: - Implementation
        .target(
            name: "FriendsLive",
            dependencies: [
                "Friends",
                .product(name: "Primitives", package: "Primitives"),
                .product(name: "Accounts", package: "Accounts"),
                .product(name: "Expenses", package: "Expenses"),
                .product(name: "FriendsData", package: "FriendsData"),
            ]
        ),
    ]
)

for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("ExistentialAny")]
}
