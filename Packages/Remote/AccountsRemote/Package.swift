// swift-tools-version: 6.0
import PackageDescription

// The Accounts service over HTTP, from flows-server (`flows --server URL`): a package of its own,
// so that only what talks to a server resolves the HTTP client and the contract.
let package = Package(
    name: "AccountsRemote",
    products: [
        .library(name: "AccountsRemote", targets: ["AccountsRemote"]),
    ],
    dependencies: [
        .package(path: "../../Domain/Primitives"),
        .package(path: "../../Domain/Accounts"),
        .package(path: "../../Data/AccountsData"),
        .package(path: "../../Infrastructure/FlowsAPI"),
        .package(path: "../PrimitivesRemote"),
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.0"),
    ],
    targets: [
        .target(
            name: "AccountsRemote",
            dependencies: [
                .product(name: "Accounts", package: "Accounts"),
                .product(name: "Primitives", package: "Primitives"),
                .product(name: "AccountsData", package: "AccountsData"),
                .product(name: "FlowsAPI", package: "FlowsAPI"),
                .product(name: "FlowsAPIClient", package: "FlowsAPI"),
                .product(name: "FlowsWire", package: "FlowsAPI"),
                .product(name: "PrimitivesRemote", package: "PrimitivesRemote"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
            ]
        ),
    ]
)

for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("ExistentialAny")]
}
