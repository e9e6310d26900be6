// swift-tools-version: 6.0
import PackageDescription

// Value types every area shares. Pure values, no I/O, so abstract modules may depend on them.
let package = Package(
    name: "Primitives",
    products: [
        .library(name: "Primitives", targets: ["Primitives"]),
    ],
    targets: [
        .target(name: "Primitives"),
    ]
)

for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("ExistentialAny")]
}
