// swift-tools-version: 6.0
import PackageDescription

// One user path. Its only public symbol is the flow actor (with its nested result type).
let package = Package(
    name: "FriendsFlow",
    products: [
        .library(name: "FriendsFlow", targets: ["FriendsFlow"]),
    ],
    dependencies: [
        .package(path: "../../FlowKit"),
        .package(path: "../../Domain/Primitives"),
        .package(path: "../../Domain/Accounts"),
        .package(path: "../../Domain/Expenses"),
        .package(path: "../../Domain/Friends"),
        .package(path: "../AddFriendFlow"),
        .package(path: "../FriendRequestsFlow"),
        .package(path: "../UserPreviewFlow"),
    ],
    targets: [
        .target(
            name: "FriendsFlow",
            dependencies: [
                .product(name: "FlowKit", package: "FlowKit"),
                .product(name: "Primitives", package: "Primitives"),
                .product(name: "Accounts", package: "Accounts"),
                .product(name: "Expenses", package: "Expenses"),
                .product(name: "Friends", package: "Friends"),
                .product(name: "AddFriendFlow", package: "AddFriendFlow"),
                .product(name: "FriendRequestsFlow", package: "FriendRequestsFlow"),
                .product(name: "UserPreviewFlow", package: "UserPreviewFlow"),
            ]
        ),
    ]
)

for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("ExistentialAny")]
}
