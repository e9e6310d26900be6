// swift-tools-version: 6.0
import PackageDescription

// Writes what follows from the service protocols (Scripts/generate-services): the tests' fakes of
// every service, and, for each requirement tagged with its contract operation, its Remote client
// method and the server's line that serves it; and, from the list of areas, how each area is
// built. Foundation only: it reads the protocols, the contract and the list as text, as they are
// written in this repository.
let package = Package(
    name: "ServiceGenerator",
    targets: [
        .executableTarget(name: "generate-services"),
        .testTarget(name: "ServiceGeneratorTests", dependencies: ["generate-services"]),
    ]
)
