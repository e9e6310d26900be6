// swift-tools-version: 6.0
import PackageDescription

// The Preferences area's stores on the server's PostgreSQL database: a package of its own, so that
// only the server resolves postgres-nio.
let package = Package(
    name: "PreferencesDataPostgres",
    products: [
        .library(name: "PreferencesDataPostgres", targets: ["PreferencesDataPostgres"]),
    ],
    dependencies: [
        .package(path: "../../DataChanges"),
        .package(path: "../DataChangesPostgres"),
        .package(path: "../../PreferencesData"),
        .package(path: "../../../Infrastructure/PostgresStore"),
    ],
    targets: [
        .target(
            name: "PreferencesDataPostgres",
            dependencies: [
                .product(name: "DataChanges", package: "DataChanges"),
                .product(name: "DataChangesPostgres", package: "DataChangesPostgres"),
                .product(name: "PreferencesData", package: "PreferencesData"),
                .product(name: "PostgresStore", package: "PostgresStore"),
            ]
        ),
    ]
)

for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("ExistentialAny")]
}
