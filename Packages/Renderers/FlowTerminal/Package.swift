// swift-tools-version: 6.0
import PackageDescription

// FlowKit's screens in a terminal: the TTY renderer (arrow keys, inline errors, drawn QR codes)
// and the plain one (numbered prompts when piped), and the keys read from the terminal.
let package = Package(
    name: "FlowTerminal",
    products: [
        .library(name: "FlowTerminal", targets: ["FlowTerminal"]),
    ],
    dependencies: [
        .package(path: "../../FlowKit"),
        .package(path: "../../Infrastructure/QRCode"),
    ],
    targets: [
        .target(
            name: "FlowTerminal",
            dependencies: [
                .product(name: "FlowKit", package: "FlowKit"),
                .product(name: "QRCode", package: "QRCode"),
            ]
        ),
    ]
)

for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("ExistentialAny")]
}
