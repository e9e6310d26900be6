// swift-tools-version: 6.0
import PackageDescription

// Sync: a person's replica of what they see on a server, kept up to date (docs/sync.md).
// `Sync` is the abstract module (a change, a page of them, the service protocol), over the
// values of the areas it carries; `SyncLive` serves the changes from the stores' change log,
// reading each entity as the person sees it through the areas' own services; `SyncReplica` is
// the other side, a replica pulling those changes in through the areas' replica interfaces.
// The areas whose values a change carries: what every module here depends on.
let areas: [Target.Dependency] = [
    .product(name: "Primitives", package: "Primitives"),
    .product(name: "Accounts", package: "Accounts"),
    .product(name: "Preferences", package: "Preferences"),
    .product(name: "Expenses", package: "Expenses"),
    .product(name: "Friends", package: "Friends"),
    .product(name: "Groups", package: "Groups"),
]

let package = Package(
    name: "Sync",
    products: [
        .library(name: "Sync", targets: ["Sync"]),
        .library(name: "SyncLive", targets: ["SyncLive"]),
        .library(name: "SyncReplica", targets: ["SyncReplica"]),
    ],
    dependencies: [
        .package(path: "../Primitives"),
        .package(path: "../Accounts"),
        .package(path: "../Preferences"),
        .package(path: "../Expenses"),
        .package(path: "../Friends"),
        .package(path: "../Groups"),
        .package(path: "../../Data/DataChanges"),
    ],
    targets: [
        // MARK: - Abstract
        .target(
            name: "Sync",
            dependencies: areas
        ),

        // MARK: - Implementation
        .target(
            name: "SyncLive",
            dependencies: ["Sync", .product(name: "DataChanges", package: "DataChanges")] + areas
        ),
        // A replica's side: pulling into it through the areas' replica interfaces.
        .target(
            name: "SyncReplica",
            dependencies: ["Sync", .product(name: "DataChanges", package: "DataChanges")] + areas
        ),
    ]
)

for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("ExistentialAny")]
}
