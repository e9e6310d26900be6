// swift-tools-version: 6.0
import PackageDescription

// Writes the tests' fakes of the service protocols (Scripts/generate-fakes): a fake for each
// protocol, with one closure a requirement, so that a new operation needs no hand-written fake.
// Foundation only: it reads the protocols as text, as they are written in this repository.
let package = Package(
    name: "FakeGenerator",
    targets: [
        .executableTarget(name: "generate-fakes"),
    ]
)
