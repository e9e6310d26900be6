// swift-tools-version: 6.0
import PackageDescription

// Apple's OpenAPI generator, pinned: Scripts/generate-api runs it over docs/api/openapi.yaml and
// writes Packages/Infrastructure/FlowsAPI/Sources/FlowsAPI/Generated, which is committed (the build plugin
// would generate it again in every build). Scripts/test checks the committed code is up to date.
let package = Package(
    name: "APIGenerator",
    dependencies: [
        .package(url: "https://github.com/apple/swift-openapi-generator", exact: "1.14.3"),
    ],
    targets: []
)
