// swift-tools-version: 6.0
import PackageDescription

// One user path. Its only public symbol is the flow actor (with its nested result type).
let package = Package(
    name: "VerifyEmailFlow",
    products: [
        .library(name: "VerifyEmailFlow", targets: ["VerifyEmailFlow"]),
    ],
    dependencies: [
        .package(path: "../../FlowKit"),
        .package(path: "../../Domain/Primitives"),
        .package(path: "../../Domain/Accounts"),
    ],
    targets: [
        .target(
            name: "VerifyEmailFlow",
            dependencies: [
                .product(name: "FlowKit", package: "FlowKit"),
                .product(name: "Primitives", package: "Primitives"),
                .product(name: "Accounts", package: "Accounts"),
            ]
        ),
    ]
)

for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("ExistentialAny")]
}
