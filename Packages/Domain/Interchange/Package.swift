// swift-tools-version: 6.0
import PackageDescription

// Import and export: `Interchange` is the abstract module (a file's contents in a form that
// belongs to no format, and the service protocol); `InterchangeFormats` reads and writes the
// formats (Splitwise's CSV export, ...) with a maintained CSV library; `InterchangeLive`
// implements the service on the Expenses, Friends and Groups abstractions, as the acting user.
let package = Package(
    name: "Interchange",
    products: [
        .library(name: "Interchange", targets: ["Interchange"]),
        .library(name: "InterchangeFormats", targets: ["InterchangeFormats"]),
        .library(name: "InterchangeLive", targets: ["InterchangeLive"]),
    ],
    dependencies: [
        .package(path: "../Primitives"),
        .package(path: "../Expenses"),
        .package(path: "../Friends"),
        .package(path: "../Groups"),
        .package(url: "https://github.com/yaslab/CSV.swift", from: "2.5.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "4.0.0"),
    ],
    targets: [
        // MARK: - Abstract
        .target(
            name: "Interchange",
            dependencies: [
                .product(name: "Primitives", package: "Primitives"),
                .product(name: "Expenses", package: "Expenses"),
            ]
        ),

        // MARK: - Implementation
        .target(
            name: "InterchangeFormats",
            dependencies: [
                "Interchange",
                .product(name: "Primitives", package: "Primitives"),
                .product(name: "Expenses", package: "Expenses"),
                .product(name: "CSV", package: "CSV.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .target(
            name: "InterchangeLive",
            dependencies: [
                "Interchange",
                .product(name: "Primitives", package: "Primitives"),
                .product(name: "Expenses", package: "Expenses"),
                .product(name: "Friends", package: "Friends"),
                .product(name: "Groups", package: "Groups"),
            ]
        ),
    ]
)

for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("ExistentialAny")]
}
