// swift-tools-version: 6.0
import PackageDescription

// The pull of a replica over HTTP, from flows-server: a package of its own, so that only what
// talks to a server resolves the HTTP client and the contract. It carries every area's values,
// so it reads and writes them with the areas' own wire forms (their Remote modules).
let package = Package(
    name: "SyncRemote",
    products: [
        .library(name: "SyncRemote", targets: ["SyncRemote"]),
    ],
    dependencies: [
        .package(path: "../../Domain/Primitives"),
        .package(path: "../../Domain/Sync"),
        .package(path: "../../Domain/Accounts"),
        .package(path: "../../Domain/Expenses"),
        .package(path: "../../Domain/Groups"),
        .package(path: "../../Domain/Preferences"),
        .package(path: "../../Infrastructure/FlowsAPI"),
        .package(path: "../PrimitivesRemote"),
        .package(path: "../ExpensesRemote"),
        .package(path: "../FriendsRemote"),
        .package(path: "../GroupsRemote"),
        .package(path: "../AccountsRemote"),
        .package(path: "../PreferencesRemote"),
        // A pushed operation's body, any JSON, as the contract's generated types hold it.
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.0"),
    ],
    targets: [
        .target(
            name: "SyncRemote",
            dependencies: [
                .product(name: "Sync", package: "Sync"),
                .product(name: "Accounts", package: "Accounts"),
                .product(name: "Expenses", package: "Expenses"),
                .product(name: "Groups", package: "Groups"),
                .product(name: "Preferences", package: "Preferences"),
                .product(name: "Primitives", package: "Primitives"),
                .product(name: "FlowsAPI", package: "FlowsAPI"),
                .product(name: "FlowsAPIClient", package: "FlowsAPI"),
                .product(name: "FlowsWire", package: "FlowsAPI"),
                .product(name: "PrimitivesRemote", package: "PrimitivesRemote"),
                .product(name: "ExpensesRemote", package: "ExpensesRemote"),
                .product(name: "FriendsRemote", package: "FriendsRemote"),
                .product(name: "GroupsRemote", package: "GroupsRemote"),
                .product(name: "AccountsRemote", package: "AccountsRemote"),
                .product(name: "PreferencesRemote", package: "PreferencesRemote"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
            ]
        ),
    ]
)

for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("ExistentialAny")]
}
