// swift-tools-version: 6.0
import PackageDescription

// Storage for the Accounts area: `AccountsData` is the abstract module (records and the store
// protocols); `AccountsDataSQLite` implements it on the embedded SQLite store (its migrations
// give existing users a friend code, so it draws them with Primitives' FriendCode);
// the server's PostgreSQL stores are a package of their own (Packages/Data/Postgres).
let package = Package(
    name: "AccountsData",
    products: [
        .library(name: "AccountsData", targets: ["AccountsData"]),
        .library(name: "AccountsDataSQLite", targets: ["AccountsDataSQLite"]),
    ],
    dependencies: [
        .package(path: "../DataChanges"),
        .package(path: "../../Infrastructure/LocalStore"),
        .package(path: "../../Domain/Primitives"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        // MARK: - Abstract
        .target(name: "AccountsData", dependencies: [.product(name: "DataChanges", package: "DataChanges")]),

        // MARK: - Implementations
        .target(
            name: "AccountsDataSQLite",
            dependencies: [
                "AccountsData",
                .product(name: "DataChanges", package: "DataChanges"),
                .product(name: "DataChangesSQLite", package: "DataChanges"),
                .product(name: "Primitives", package: "Primitives"),
                .product(name: "LocalStore", package: "LocalStore"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
    ]
)

for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("ExistentialAny")]
}
