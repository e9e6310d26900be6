// swift-tools-version: 6.0
import PackageDescription

// Exchange rates: `Rates` is the abstract module (a table of reference rates, a quote between
// two currencies on a day, the exact conversion it makes, and the service protocol);
// `RatesECB` implements it on the European Central Bank's euro reference rates, shipped with
// the app as data and updatable offline from a newer ECB file.
let package = Package(
    name: "Rates",
    products: [
        .library(name: "Rates", targets: ["Rates"]),
        .library(name: "RatesECB", targets: ["RatesECB"]),
    ],
    dependencies: [
        .package(path: "../Primitives"),
    ],
    targets: [
        // MARK: - Abstract
        .target(
            name: "Rates",
            dependencies: [
                .product(name: "Primitives", package: "Primitives"),
            ]
        ),

        // MARK: - Implementation
        .target(
            name: "RatesECB",
            dependencies: [
                "Rates",
                .product(name: "Primitives", package: "Primitives"),
            ]
        ),
    ]
)

for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("ExistentialAny")]
}
