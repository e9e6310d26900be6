// swift-tools-version: 6.0
import PackageDescription

// FlowKit is the architecture itself and knows nothing of the app: Flow, the roles inside one
// (Presenter, ViewModel, ViewActions, View), Screen and AppRouter. It imports no other package.
// What draws its screens and what drives them are packages of their own: Packages/Renderers
// and Packages/FlowTesting.
let package = Package(
    name: "FlowKit",
    products: [
        .library(name: "FlowKit", targets: ["FlowKit"]),
    ],
    targets: [
        .target(name: "FlowKit"),
    ]
)

for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("ExistentialAny")]
}
