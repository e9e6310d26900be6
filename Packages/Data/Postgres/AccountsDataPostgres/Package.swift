// swift-tools-version: 6.0
import PackageDescription

// The Accounts area's stores on the server's PostgreSQL database: a package of its own, so that
// only the server resolves postgres-nio.
let package = Package(
    name: "AccountsDataPostgres",
    products: [
        .library(name: "AccountsDataPostgres", targets: ["AccountsDataPostgres"]),
    ],
    dependencies: [
        .package(path: "../../DataChanges"),
        .package(path: "../DataChangesPostgres"),
        .package(path: "../../AccountsData"),
        .package(path: "../../../Infrastructure/PostgresStore"),
    ],
    targets: [
        .target(
            name: "AccountsDataPostgres",
            dependencies: [
                .product(name: "DataChanges", package: "DataChanges"),
                .product(name: "DataChangesPostgres", package: "DataChangesPostgres"),
                .product(name: "AccountsData", package: "AccountsData"),
                .product(name: "PostgresStore", package: "PostgresStore"),
            ]
        ),
    ]
)

for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("ExistentialAny")]
}
