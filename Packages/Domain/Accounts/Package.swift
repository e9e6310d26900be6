// swift-tools-version: 6.0
import PackageDescription

// The Accounts area: `Accounts` is the abstract module (entities, rules, the service protocol);
// `AccountsLive` implements it on top of the AccountsData abstraction.
let package = Package(
    name: "Accounts",
    products: [
        .library(name: "Accounts", targets: ["Accounts"]),
        .library(name: "AccountsLive", targets: ["AccountsLive"]),
        .library(name: "AccountsRemote", targets: ["AccountsRemote"]),
    ],
    dependencies: [
        .package(path: "../Primitives"),
        .package(path: "../../Infrastructure"),
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.0"),
        .package(path: "../../Data/AccountsData"),
        .package(url: "https://github.com/apple/swift-crypto", from: "4.0.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth", from: "2.5.0"),
    ],
    targets: [
        // MARK: - Abstract
        .target(name: "Accounts", dependencies: ["Primitives"]),

        // MARK: - Implementation
        .target(
            name: "AccountsLive",
            dependencies: [
                "Accounts",
                "Primitives",
                .product(name: "AccountsData", package: "AccountsData"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
            ]
        ),
        // The same service over HTTP, from flows-server (`flows --server URL`).
        .target(
            name: "AccountsRemote",
            dependencies: [
                "Accounts",
                "Primitives",
                .product(name: "AccountsData", package: "AccountsData"),
                .product(name: "FlowsAPI", package: "Infrastructure"),
                .product(name: "FlowsAPIClient", package: "Infrastructure"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
            ]
        ),
    ]
)

for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("ExistentialAny")]
}
