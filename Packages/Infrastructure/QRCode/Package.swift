// swift-tools-version: 6.0
import PackageDescription

// QR codes: text to a matrix of modules. A general tool, not part of the flow architecture: the
// terminal renderer draws its matrices.
let package = Package(
    name: "QRCode",
    products: [
        .library(name: "QRCode", targets: ["QRCode"]),
    ],
    targets: [
        .target(name: "QRCode"),
    ]
)

for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("ExistentialAny")]
}
