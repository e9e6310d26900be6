// swift-tools-version: 6.1
import PackageDescription

// An outside tool that embeds Flows' local services: it depends on the packages it uses in a
// Flows checkout (here by path), and resolves only what they compile.
let package = Package(
    name: "SplitDinner",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(path: "../../Packages/Services"),
        .package(path: "../../Packages/Domain/Primitives"),
        .package(path: "../../Packages/Domain/Accounts"),
        .package(path: "../../Packages/Domain/Expenses"),
        .package(path: "../../Packages/Domain/Friends"),
        .package(path: "../../Packages/Infrastructure/LocalStore"),
    ],
    targets: [
        .executableTarget(
            name: "SplitDinner",
            dependencies: [
                .product(name: "FlowsServices", package: "Services"),
                .product(name: "Primitives", package: "Primitives"),
                .product(name: "Accounts", package: "Accounts"),
                .product(name: "Expenses", package: "Expenses"),
                .product(name: "Friends", package: "Friends"),
                .product(name: "LocalStore", package: "LocalStore"),
            ]
        ),
    ]
)
