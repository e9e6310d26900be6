// swift-tools-version: 6.0
import PackageDescription

// The Groups area's stores on the server's PostgreSQL database: a package of its own, so that
// only the server resolves postgres-nio.
let package = Package(
    name: "GroupsDataPostgres",
    products: [
        .library(name: "GroupsDataPostgres", targets: ["GroupsDataPostgres"]),
    ],
    dependencies: [
        .package(path: "../../DataChanges"),
        .package(path: "../DataChangesPostgres"),
        .package(path: "../../GroupsData"),
        .package(path: "../../../Infrastructure/PostgresStore"),
    ],
    targets: [
        .target(
            name: "GroupsDataPostgres",
            dependencies: [
                .product(name: "DataChanges", package: "DataChanges"),
                .product(name: "DataChangesPostgres", package: "DataChangesPostgres"),
                .product(name: "GroupsData", package: "GroupsData"),
                .product(name: "PostgresStore", package: "PostgresStore"),
            ]
        ),
    ]
)

for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("ExistentialAny")]
}
