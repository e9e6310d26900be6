// swift-tools-version: 6.0
import PackageDescription

// The shared values (ids, money, days, names, emails) in the contract's form, and the refusals
// their rules give: what every area's Remote module and flows-server read and write them with.
let package = Package(
    name: "PrimitivesRemote",
    products: [
        .library(name: "PrimitivesRemote", targets: ["PrimitivesRemote"]),
    ],
    dependencies: [
        .package(path: "../../Domain/Primitives"),
        .package(path: "../../Infrastructure/FlowsAPI"),
    ],
    targets: [
        .target(
            name: "PrimitivesRemote",
            dependencies: [
                .product(name: "Primitives", package: "Primitives"),
                .product(name: "FlowsAPI", package: "FlowsAPI"),
                .product(name: "FlowsWire", package: "FlowsAPI"),
            ]
        ),
    ]
)

for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("ExistentialAny")]
}
