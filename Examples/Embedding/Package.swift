// swift-tools-version: 6.1
import PackageDescription

// An outside tool that embeds Flows' modules: it depends on the Flows checkout by path (a URL
// and a version work the same) and on the areas it talks to.
let package = Package(
    name: "SplitDinner",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "Flows", path: "../.."),
        .package(path: "../../Packages/Domain/Primitives"),
        .package(path: "../../Packages/Domain/Accounts"),
        .package(path: "../../Packages/Domain/Expenses"),
        .package(path: "../../Packages/Domain/Friends"),
        .package(path: "../../Packages/Infrastructure"),
    ],
    targets: [
        .executableTarget(
            name: "SplitDinner",
            dependencies: [
                .product(name: "FlowsServices", package: "Flows"),
                .product(name: "Primitives", package: "Primitives"),
                .product(name: "Accounts", package: "Accounts"),
                .product(name: "Expenses", package: "Expenses"),
                .product(name: "Friends", package: "Friends"),
                .product(name: "LocalStore", package: "Infrastructure"),
            ]
        ),
    ]
)
