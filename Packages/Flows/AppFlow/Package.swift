// swift-tools-version: 6.0
import PackageDescription

// One user path. Its only public symbol is the flow actor (with its nested result type).
let package = Package(
    name: "AppFlow",
    products: [
        .library(name: "AppFlow", targets: ["AppFlow"]),
    ],
    dependencies: [
        .package(path: "../../FlowKit"),
        .package(path: "../../Domain/Primitives"),
        .package(path: "../../Domain/Accounts"),
        .package(path: "../UnauthenticatedFlow"),
        .package(path: "../AuthenticatedFlow"),
    ],
    targets: [
        .target(
            name: "AppFlow",
            dependencies: [
                .product(name: "FlowKit", package: "FlowKit"),
                .product(name: "Primitives", package: "Primitives"),
                .product(name: "Accounts", package: "Accounts"),
                .product(name: "UnauthenticatedFlow", package: "UnauthenticatedFlow"),
                .product(name: "AuthenticatedFlow", package: "AuthenticatedFlow"),
            ]
        ),
    ]
)

for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("ExistentialAny")]
}
