// swift-tools-version: 6.0
import PackageDescription

// Sync: a person's replica of what they see on a server, kept up to date (docs/sync.md).
// `Sync` is the abstract module (a change, a page of them, the service protocol), over the
// values of the areas it carries; `SyncLive` serves the changes from the stores' change log,
// reading each entity as the person sees it through the areas' own services; `SyncReplica` is
// the other side, a replica pulling those changes in through the areas' replica interfaces.
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
            dependencies: [
                .product(name: "Primitives", package: "Primitives"),
                .product(name: "Accounts", package: "Accounts"),
                .product(name: "Preferences", package: "Preferences"),
                .product(name: "Expenses", package: "Expenses"),
                .product(name: "Friends", package: "Friends"),
                .product(name: "Groups", package: "Groups"),
            ]
        ),

        // MARK: - Implementation
        .target(
            name: "SyncLive",
            dependencies: [
                "Sync",
                .product(name: "Primitives", package: "Primitives"),
                .product(name: "Accounts", package: "Accounts"),
                .product(name: "Preferences", package: "Preferences"),
                .product(name: "Expenses", package: "Expenses"),
                .product(name: "Friends", package: "Friends"),
                .product(name: "Groups", package: "Groups"),
                .product(name: "DataChanges", package: "DataChanges"),
            ]
        ),
        // A replica's side: pulling into it through the areas' replica interfaces.
        .target(
            name: "SyncReplica",
            dependencies: [
                "Sync",
                .product(name: "Primitives", package: "Primitives"),
                .product(name: "Accounts", package: "Accounts"),
                .product(name: "Preferences", package: "Preferences"),
                .product(name: "Expenses", package: "Expenses"),
                .product(name: "Friends", package: "Friends"),
                .product(name: "Groups", package: "Groups"),
                .product(name: "DataChanges", package: "DataChanges"),
            ]
        ),
    ]
)

for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("ExistentialAny")]
}
