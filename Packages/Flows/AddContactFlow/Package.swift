// swift-tools-version: 6.0
import PackageDescription

// One user path. Its only public symbol is the flow actor (with its nested result type).
let package = Package(
    name: "AddContactFlow",
    products: [
        .library(name: "AddContactFlow", targets: ["AddContactFlow"]),
    ],
    dependencies: [
        .package(path: "../../FlowKit"),
        .package(path: "../../FlowSupport"),
        .package(path: "../../Domain/Primitives"),
        .package(path: "../../Domain/Friends"),
    ],
    targets: [
        .target(
            name: "AddContactFlow",
            dependencies: [
                .product(name: "FlowKit", package: "FlowKit"),
                .product(name: "FormFields", package: "FlowSupport"),
                .product(name: "Primitives", package: "Primitives"),
                .product(name: "Friends", package: "Friends"),
            ]
        ),
    ]
)

for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("ExistentialAny")]
}
