// swift-tools-version: 6.0
import PackageDescription

// The change log on the server's PostgreSQL database, which every area's PostgreSQL store
// writes in its transactions and a pull reads: a package of its own, so that only the server
// resolves postgres-nio.
let package = Package(
    name: "DataChangesPostgres",
    products: [
        .library(name: "DataChangesPostgres", targets: ["DataChangesPostgres"]),
    ],
    dependencies: [
        .package(path: "../../DataChanges"),
        .package(path: "../../../Infrastructure/PostgresStore"),
    ],
    targets: [
        .target(
            name: "DataChangesPostgres",
            dependencies: [
                .product(name: "DataChanges", package: "DataChanges"),
                .product(name: "PostgresStore", package: "PostgresStore"),
            ]
        ),
    ]
)

for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("ExistentialAny")]
}
