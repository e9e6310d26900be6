// swift-tools-version: 6.0
import PackageDescription

// Storage for the Preferences area: `PreferencesData` is the abstract module (records and the store
// protocols); `PreferencesDataSQLite` implements it on the embedded SQLite store, and
// `PreferencesDataPostgres` on the server's PostgreSQL database.
let package = Package(
    name: "PreferencesData",
    products: [
        .library(name: "PreferencesData", targets: ["PreferencesData"]),
        .library(name: "PreferencesDataSQLite", targets: ["PreferencesDataSQLite"]),
        .library(name: "PreferencesDataPostgres", targets: ["PreferencesDataPostgres"]),
    ],
    dependencies: [
        .package(path: "../../Infrastructure"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        // MARK: - Abstract
        .target(name: "PreferencesData"),

        // MARK: - Implementations
        .target(
            name: "PreferencesDataSQLite",
            dependencies: [
                "PreferencesData",
                .product(name: "LocalStore", package: "Infrastructure"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .target(
            name: "PreferencesDataPostgres",
            dependencies: [
                "PreferencesData",
                .product(name: "PostgresStore", package: "Infrastructure"),
            ]
        ),
    ]
)

for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("ExistentialAny")]
}
