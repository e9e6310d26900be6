// swift-tools-version: 6.0
import PackageDescription

// What several flows do alike with their forms' fields (an email, a password, a name), written
// once for the flow layer. It knows FlowKit and the domain's abstract modules; flows use it, and
// no domain, data or infrastructure module may (check-architecture).
let package = Package(
    name: "FlowSupport",
    products: [
        .library(name: "FormFields", targets: ["FormFields"]),
    ],
    dependencies: [
        .package(path: "../FlowKit"),
        .package(path: "../Domain/Primitives"),
        .package(path: "../Domain/Accounts"),
    ],
    targets: [
        .target(
            name: "FormFields",
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
