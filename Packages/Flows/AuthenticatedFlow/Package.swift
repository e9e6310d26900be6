// swift-tools-version: 6.0
import PackageDescription

// One user path. Its only public symbol is the flow actor (with its nested result type).
let package = Package(
    name: "AuthenticatedFlow",
    products: [
        .library(name: "AuthenticatedFlow", targets: ["AuthenticatedFlow"]),
    ],
    dependencies: [
        .package(path: "../../FlowKit"),
        .package(path: "../../Domain/Primitives"),
        .package(path: "../../Domain/Accounts"),
        .package(path: "../../Domain/Preferences"),
        .package(path: "../../Domain/Expenses"),
        .package(path: "../../Domain/Friends"),
        .package(path: "../../Domain/Groups"),
        .package(path: "../../Domain/Sync"),
        .package(path: "../AccountFlow"),
        .package(path: "../FriendsFlow"),
        .package(path: "../GroupsFlow"),
        .package(path: "../AddExpenseFlow"),
        .package(path: "../SettleUpFlow"),
        .package(path: "../ExpensesFlow"),
        .package(path: "../SyncFlow"),
    ],
    targets: [
        .target(
            name: "AuthenticatedFlow",
            dependencies: [
                .product(name: "FlowKit", package: "FlowKit"),
                .product(name: "Primitives", package: "Primitives"),
                .product(name: "Accounts", package: "Accounts"),
                .product(name: "Preferences", package: "Preferences"),
                .product(name: "Expenses", package: "Expenses"),
                .product(name: "Friends", package: "Friends"),
                .product(name: "Groups", package: "Groups"),
                .product(name: "Sync", package: "Sync"),
                .product(name: "AccountFlow", package: "AccountFlow"),
                .product(name: "FriendsFlow", package: "FriendsFlow"),
                .product(name: "GroupsFlow", package: "GroupsFlow"),
                .product(name: "AddExpenseFlow", package: "AddExpenseFlow"),
                .product(name: "SettleUpFlow", package: "SettleUpFlow"),
                .product(name: "ExpensesFlow", package: "ExpensesFlow"),
                .product(name: "SyncFlow", package: "SyncFlow"),
            ]
        ),
    ]
)

for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("ExistentialAny")]
}
