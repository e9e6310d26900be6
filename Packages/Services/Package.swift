// swift-tools-version: 6.0
import PackageDescription

// The services on the embedded store, wired once (`LocalServices`): what the `flows` app runs
// on by default, what the server builds its own from, and what other Swift tools embed
// (docs/embedding.md). It resolves only what it compiles: GRDB and swift-crypto (with its
// swift-asn1); bcrypt comes from the system's libcrypt.
let package = Package(
    name: "FlowsServices",
    products: [
        .library(name: "FlowsServices", targets: ["FlowsServices"]),
    ],
    dependencies: [
        .package(path: "../Infrastructure/LocalStore"),
        .package(path: "../Domain/Primitives"),
        .package(path: "../Domain/Accounts"),
        .package(path: "../Domain/Expenses"),
        .package(path: "../Domain/Friends"),
        .package(path: "../Domain/Groups"),
        .package(path: "../Domain/Preferences"),
        .package(path: "../Domain/Sync"),
        .package(path: "../Data/DataChanges"),
        .package(path: "../Data/AccountsData"),
        .package(path: "../Data/ExpensesData"),
        .package(path: "../Data/FriendsData"),
        .package(path: "../Data/GroupsData"),
        .package(path: "../Data/PreferencesData"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        .target(
            name: "FlowsServices",
            dependencies: [
                .product(name: "LocalStore", package: "LocalStore"),
                .product(name: "Primitives", package: "Primitives"),
                .product(name: "DataChanges", package: "DataChanges"),
                .product(name: "Accounts", package: "Accounts"),
                .product(name: "AccountsLive", package: "Accounts"),
                .product(name: "AccountsData", package: "AccountsData"),
                .product(name: "AccountsDataSQLite", package: "AccountsData"),
                .product(name: "Expenses", package: "Expenses"),
                .product(name: "ExpensesLive", package: "Expenses"),
                .product(name: "ExpensesData", package: "ExpensesData"),
                .product(name: "ExpensesDataSQLite", package: "ExpensesData"),
                .product(name: "Friends", package: "Friends"),
                .product(name: "FriendsLive", package: "Friends"),
                .product(name: "FriendsData", package: "FriendsData"),
                .product(name: "FriendsDataSQLite", package: "FriendsData"),
                .product(name: "Groups", package: "Groups"),
                .product(name: "GroupsLive", package: "Groups"),
                .product(name: "GroupsData", package: "GroupsData"),
                .product(name: "GroupsDataSQLite", package: "GroupsData"),
                .product(name: "Preferences", package: "Preferences"),
                .product(name: "PreferencesLive", package: "Preferences"),
                .product(name: "PreferencesData", package: "PreferencesData"),
                .product(name: "PreferencesDataSQLite", package: "PreferencesData"),
                .product(name: "Sync", package: "Sync"),
                .product(name: "SyncReplica", package: "Sync"),
                .product(name: "DataChangesSQLite", package: "DataChanges"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
    ]
)

for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("ExistentialAny")]
}
