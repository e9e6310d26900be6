// swift-tools-version: 6.0
import PackageDescription

// Storage for the Preferences area: `PreferencesData` is the abstract module (records and the store
// protocols); `PreferencesDataSQLite` implements it on the embedded SQLite store; the server's
// PostgreSQL stores are a package of their own (Packages/Data/Postgres).
let package = Package(
    name: "PreferencesData",
    products: [
        .library(name: "PreferencesData", targets: ["PreferencesData"]),
        .library(name: "PreferencesDataSQLite", targets: ["PreferencesDataSQLite"]),
    ],
    dependencies: [
        .package(path: "../DataChanges"),
        .package(path: "../../Infrastructure/LocalStore"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        // MARK: - Abstract
        .target(name: "PreferencesData", dependencies: [.product(name: "DataChanges", package: "DataChanges")]),

        // MARK: - Implementations
        .target(
            name: "PreferencesDataSQLite",
            dependencies: [
                "PreferencesData",
                .product(name: "DataChanges", package: "DataChanges"),
                .product(name: "DataChangesSQLite", package: "DataChanges"),
                .product(name: "LocalStore", package: "LocalStore"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
    ]
)

for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("ExistentialAny")]
}
