// swift-tools-version: 6.0
import PackageDescription

// Storage for the Expenses area: `ExpensesData` is the abstract module (records and the store
// protocols); `ExpensesDataSQLite` implements it on the embedded SQLite store, and
// `ExpensesDataPostgres` on the server's PostgreSQL database.
let package = Package(
    name: "ExpensesData",
    products: [
        .library(name: "ExpensesData", targets: ["ExpensesData"]),
        .library(name: "ExpensesDataSQLite", targets: ["ExpensesDataSQLite"]),
        .library(name: "ExpensesDataPostgres", targets: ["ExpensesDataPostgres"]),
    ],
    dependencies: [
        .package(path: "../../Infrastructure"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        // MARK: - Abstract
        .target(name: "ExpensesData"),

        // MARK: - Implementations
        .target(
            name: "ExpensesDataSQLite",
            dependencies: [
                "ExpensesData",
                .product(name: "LocalStore", package: "Infrastructure"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .target(
            name: "ExpensesDataPostgres",
            dependencies: [
                "ExpensesData",
                .product(name: "PostgresStore", package: "Infrastructure"),
            ]
        ),
    ]
)

for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("ExistentialAny")]
}
