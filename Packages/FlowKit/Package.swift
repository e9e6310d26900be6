// swift-tools-version: 6.0
import PackageDescription

// FlowKit is the architecture itself and knows nothing of the app: it imports no other package.
// FlowTestSupport, for Swift tests only, is the one module that imports Swift Testing, so that
// the `flows` app (which runs scripts through FlowTesting) never links it.
let package = Package(
    name: "FlowKit",
    products: [
        .library(name: "FlowKit", targets: ["FlowKit"]),
        .library(name: "FlowTerminal", targets: ["FlowTerminal"]),
        .library(name: "FlowTesting", targets: ["FlowTesting"]),
        .library(name: "FlowTestSupport", targets: ["FlowTestSupport"]),
        .library(name: "QRCode", targets: ["QRCode"]),
    ],
    targets: [
        // MARK: - Flow, roles, Screen, AppRouter
        .target(name: "FlowKit"),

        // MARK: - Renderers for a terminal
        .target(name: "FlowTerminal", dependencies: ["FlowKit", "QRCode"]),

        // MARK: - Driving flows from scripts and tests
        .target(name: "FlowTesting", dependencies: ["FlowKit"]),

        // MARK: - Flows in Swift tests: FlowTest, failures recorded at the step's line
        .target(name: "FlowTestSupport", dependencies: ["FlowKit", "FlowTesting"]),

        // MARK: - QR codes: text to a matrix of modules, and a drawing of it for a terminal
        .target(name: "QRCode"),
    ]
)

for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("ExistentialAny")]
}
