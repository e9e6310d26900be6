// swift-tools-version: 6.0
import PackageDescription

// The Expenses area's stores on the server's PostgreSQL database: a package of its own, so that
// only the server resolves postgres-nio.
let package = Package(
    name: "ExpensesDataPostgres",
    products: [
        .library(name: "ExpensesDataPostgres", targets: ["ExpensesDataPostgres"]),
    ],
    dependencies: [
        .package(path: "../../DataChanges"),
        .package(path: "../DataChangesPostgres"),
        .package(path: "../../ExpensesData"),
        .package(path: "../../../Infrastructure/PostgresStore"),
    ],
    targets: [
        .target(
            name: "ExpensesDataPostgres",
            dependencies: [
                .product(name: "DataChanges", package: "DataChanges"),
                .product(name: "DataChangesPostgres", package: "DataChangesPostgres"),
                .product(name: "ExpensesData", package: "ExpensesData"),
                .product(name: "PostgresStore", package: "PostgresStore"),
            ]
        ),
    ]
)

for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("ExistentialAny")]
}
