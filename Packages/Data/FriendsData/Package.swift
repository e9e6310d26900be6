// swift-tools-version: 6.0
import PackageDescription

// Storage for the Friends area: `FriendsData` is the abstract module (records and the store
// protocols); `FriendsDataSQLite` implements it on the embedded SQLite store, and
// `FriendsDataPostgres` on the server's PostgreSQL database.
let package = Package(
    name: "FriendsData",
    products: [
        .library(name: "FriendsData", targets: ["FriendsData"]),
        .library(name: "FriendsDataSQLite", targets: ["FriendsDataSQLite"]),
        .library(name: "FriendsDataPostgres", targets: ["FriendsDataPostgres"]),
    ],
    dependencies: [
        .package(path: "../../Infrastructure"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        // MARK: - Abstract
        .target(name: "FriendsData"),

        // MARK: - Implementations
        .target(
            name: "FriendsDataSQLite",
            dependencies: [
                "FriendsData",
                .product(name: "LocalStore", package: "Infrastructure"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .target(
            name: "FriendsDataPostgres",
            dependencies: [
                "FriendsData",
                .product(name: "PostgresStore", package: "Infrastructure"),
            ]
        ),
    ]
)

for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("ExistentialAny")]
}
