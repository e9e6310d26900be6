// swift-tools-version: 6.0
import PackageDescription

// FlowKit is the architecture itself and knows nothing of the app: it imports no other package.
let package = Package(
    name: "FlowKit",
    products: [
        .library(name: "FlowKit", targets: ["FlowKit"]),
        .library(name: "FlowTerminal", targets: ["FlowTerminal"]),
        .library(name: "FlowTesting", targets: ["FlowTesting"]),
    ],
    targets: [
        // MARK: - Flow, roles, Screen, AppRouter
        .target(name: "FlowKit"),

        // MARK: - Renderers for a terminal
        .target(name: "FlowTerminal", dependencies: ["FlowKit"]),

        // MARK: - Driving flows from scripts and tests
        .target(name: "FlowTesting", dependencies: ["FlowKit"]),
    ]
)

for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("ExistentialAny")]
}
