// swift-tools-version: 6.0
import PackageDescription

// The Friends area's stores on the server's PostgreSQL database: a package of its own, so that
// only the server resolves postgres-nio.
let package = Package(
    name: "FriendsDataPostgres",
    products: [
        .library(name: "FriendsDataPostgres", targets: ["FriendsDataPostgres"]),
    ],
    dependencies: [
        .package(path: "../../DataChanges"),
        .package(path: "../DataChangesPostgres"),
        .package(path: "../../FriendsData"),
        .package(path: "../../../Infrastructure/PostgresStore"),
    ],
    targets: [
        .target(
            name: "FriendsDataPostgres",
            dependencies: [
                .product(name: "DataChanges", package: "DataChanges"),
                .product(name: "DataChangesPostgres", package: "DataChangesPostgres"),
                .product(name: "FriendsData", package: "FriendsData"),
                .product(name: "PostgresStore", package: "PostgresStore"),
            ]
        ),
    ]
)

for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("ExistentialAny")]
}
