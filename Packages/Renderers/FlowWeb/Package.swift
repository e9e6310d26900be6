// swift-tools-version: 6.0
import PackageDescription

// FlowKit's screens as web pages: each screen as semantic, accessible HTML (forms that work
// without JavaScript), the browser sessions that each run an app's flows, and the answers to a
// browser's requests. It knows no HTTP server: flows-server and `flows web` carry its requests.
let package = Package(
    name: "FlowWeb",
    products: [
        .library(name: "FlowWeb", targets: ["FlowWeb"]),
    ],
    dependencies: [
        .package(path: "../../FlowKit"),
        // ScriptedHost: a host driven by the caller, which a browser session is.
        .package(path: "../../FlowTesting"),
        .package(path: "../../Infrastructure/QRCode"),
        // Templates that escape every value they are given (`{{value}}`).
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
    ],
    targets: [
        .target(
            name: "FlowWeb",
            dependencies: [
                .product(name: "FlowKit", package: "FlowKit"),
                .product(name: "FlowTesting", package: "FlowTesting"),
                .product(name: "QRCode", package: "QRCode"),
                .product(name: "Mustache", package: "swift-mustache"),
            ]
        ),
    ]
)

for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("ExistentialAny")]
}
