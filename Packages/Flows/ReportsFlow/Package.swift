// swift-tools-version: 6.0
import PackageDescription

// One user path. Its only public symbol is the flow actor (with its nested result type).
let package = Package(
    name: "ReportsFlow",
    products: [
        .library(name: "ReportsFlow", targets: ["ReportsFlow"]),
    ],
    dependencies: [
        .package(path: "../../FlowKit"),
        .package(path: "../../FlowSupport"),
        .package(path: "../../Domain/Primitives"),
        .package(path: "../../Domain/Expenses"),
    ],
    targets: [
        .target(
            name: "ReportsFlow",
            dependencies: [
                .product(name: "FlowKit", package: "FlowKit"),
                .product(name: "FormFields", package: "FlowSupport"),
                .product(name: "Primitives", package: "Primitives"),
                .product(name: "Expenses", package: "Expenses"),
            ]
        ),
    ]
)

for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("ExistentialAny")]
}
