// swift-tools-version: 6.0
import PackageDescription

// What every area's stores share about their writes: whom a write concerns, noted while it
// runs and told once it is done. Abstract, and depending on nothing, like the areas' own data
// modules that use it.
let package = Package(
    name: "DataChanges",
    products: [
        .library(name: "DataChanges", targets: ["DataChanges"]),
    ],
    targets: [
        .target(name: "DataChanges"),
    ]
)

for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("ExistentialAny")]
}
