// swift-tools-version: 6.0
import PackageDescription

// The Accounts area: `Accounts` is the abstract module (entities, rules, the service protocol);
// `AccountsLive` implements it on top of the AccountsData abstraction.
let package = Package(
    name: "Accounts",
    products: [
        .library(name: "Accounts", targets: ["Accounts"]),
        .library(name: "AccountsLive", targets: ["AccountsLive"]),
    ],
    dependencies: [
        .package(path: "../Primitives"),
        .package(path: "../../Data/AccountsData"),
        .package(url: "https://github.com/apple/swift-crypto", from: "4.0.0"),
    ],
    targets: [
        // MARK: - Abstract
        .target(name: "Accounts", dependencies: ["Primitives"]),

        // MARK: - Implementation
        // bcrypt from the system's libcrypt (libxcrypt), which Linux's C library comes with: no
        // package to resolve and build for it. Opened at the first password (dlopen).
        .target(name: "CBcrypt", linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]),
        .target(
            name: "AccountsLive",
            dependencies: [
                "Accounts",
                "Primitives",
                .product(name: "AccountsData", package: "AccountsData"),
                .product(name: "Crypto", package: "swift-crypto"),
                "CBcrypt",
            ]
        ),
    ]
)

for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("ExistentialAny")]
}
