// swift-tools-version: 6.0
import PackageDescription

// The Groups service over HTTP, from flows-server (`flows --server URL`): a package of its own,
// so that only what talks to a server resolves the HTTP client and the contract.
let package = Package(
    name: "GroupsRemote",
    products: [
        .library(name: "GroupsRemote", targets: ["GroupsRemote"]),
    ],
    dependencies: [
        .package(path: "../../Domain/Primitives"),
        .package(path: "../../Domain/Groups"),
        .package(path: "../../Infrastructure/FlowsAPI"),
        .package(path: "../PrimitivesRemote"),
    ],
    targets: [
        .target(
            name: "GroupsRemote",
            dependencies: [
                .product(name: "Groups", package: "Groups"),
                .product(name: "Primitives", package: "Primitives"),
                .product(name: "FlowsAPI", package: "FlowsAPI"),
                .product(name: "FlowsAPIClient", package: "FlowsAPI"),
                .product(name: "FlowsWire", package: "FlowsAPI"),
                .product(name: "PrimitivesRemote", package: "PrimitivesRemote"),
            ]
        ),
    ]
)

for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("ExistentialAny")]
}
