// swift-tools-version: 6.0
import PackageDescription

// What every area's stores share about their writes: whom a write concerns and what it
// changed, noted while it runs, told once it is done, and kept in a change log by a server's
// stores. `DataChanges` is abstract and depends on nothing, like the areas' own data modules
// that use it; `DataChangesSQLite` keeps the log on the embedded SQLite store (the server's
// PostgreSQL log is a package of its own, Packages/Data/Postgres/DataChangesPostgres).
let package = Package(
    name: "DataChanges",
    products: [
        .library(name: "DataChanges", targets: ["DataChanges"]),
        .library(name: "DataChangesSQLite", targets: ["DataChangesSQLite"]),
    ],
    dependencies: [
        .package(path: "../../Infrastructure/LocalStore"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        // MARK: - Abstract
        .target(name: "DataChanges"),

        // MARK: - Implementations
        .target(
            name: "DataChangesSQLite",
            dependencies: [
                "DataChanges",
                .product(name: "LocalStore", package: "LocalStore"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
    ]
)

for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("ExistentialAny")]
}
