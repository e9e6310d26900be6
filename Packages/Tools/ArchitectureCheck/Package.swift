// swift-tools-version: 6.0
import PackageDescription

// The project's own architecture rules: reads every package's manifest and every source file's
// imports and fails, naming the offending edge, when a rule of docs/architecture.md is broken.
let package = Package(
    name: "ArchitectureCheck",
    products: [
        .library(name: "ArchitectureRules", targets: ["ArchitectureRules"]),
        .executable(name: "check-architecture", targets: ["check-architecture"]),
    ],
    targets: [
        .target(name: "ArchitectureRules"),
        .executableTarget(name: "check-architecture", dependencies: ["ArchitectureRules"]),
    ]
)

for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("ExistentialAny")]
}
