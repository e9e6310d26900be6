// swift-tools-version: 6.0
import PackageDescription

// The harness: FlowTesting drives any flow from a script (golden transcripts, random walks,
// coverage) for the `flows test` command and the tests. FlowTestSupport, for Swift tests only,
// is the one module that imports Swift Testing, so that the `flows` app never links it.
let package = Package(
    name: "FlowTesting",
    products: [
        .library(name: "FlowTesting", targets: ["FlowTesting"]),
        .library(name: "FlowTestSupport", targets: ["FlowTestSupport"]),
    ],
    dependencies: [
        .package(path: "../FlowKit"),
    ],
    targets: [
        .target(name: "FlowTesting", dependencies: [.product(name: "FlowKit", package: "FlowKit")]),
        .target(
            name: "FlowTestSupport",
            dependencies: ["FlowTesting", .product(name: "FlowKit", package: "FlowKit")]
        ),
    ]
)

for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("ExistentialAny")]
}
