// swift-tools-version: 6.1
import PackageDescription

// The modules of each area, as the app and the tests depend on them.
let accountsModules: [Target.Dependency] = [
    .product(name: "Accounts", package: "Accounts"),
    .product(name: "AccountsLive", package: "Accounts"),
    .product(name: "AccountsData", package: "AccountsData"),
    .product(name: "AccountsDataSQLite", package: "AccountsData"),
]
let expensesModules: [Target.Dependency] = [
    .product(name: "Expenses", package: "Expenses"),
    .product(name: "ExpensesLive", package: "Expenses"),
    .product(name: "ExpensesData", package: "ExpensesData"),
    .product(name: "ExpensesDataSQLite", package: "ExpensesData"),
]
let friendsModules: [Target.Dependency] = [
    .product(name: "Friends", package: "Friends"),
    .product(name: "FriendsLive", package: "Friends"),
    .product(name: "FriendsData", package: "FriendsData"),
    .product(name: "FriendsDataSQLite", package: "FriendsData"),
]
let groupsModules: [Target.Dependency] = [
    .product(name: "Groups", package: "Groups"),
    .product(name: "GroupsLive", package: "Groups"),
    .product(name: "GroupsData", package: "GroupsData"),
    .product(name: "GroupsDataSQLite", package: "GroupsData"),
]
// A replica's pull (docs/sync.md): its service, and the change log every area's stores write.
let syncModules: [Target.Dependency] = [
    .product(name: "Sync", package: "Sync"),
    .product(name: "SyncLive", package: "Sync"),
    .product(name: "SyncReplica", package: "Sync"),
    .product(name: "DataChanges", package: "DataChanges"),
    .product(name: "DataChangesSQLite", package: "DataChanges"),
]
let interchangeModules: [Target.Dependency] = [
    .product(name: "Interchange", package: "Interchange"),
    .product(name: "InterchangeFormats", package: "Interchange"),
    .product(name: "InterchangeLive", package: "Interchange"),
]
let ratesModules: [Target.Dependency] = [
    .product(name: "Rates", package: "Rates"),
    .product(name: "RatesECB", package: "Rates"),
]
let preferencesModules: [Target.Dependency] = [
    .product(name: "Preferences", package: "Preferences"),
    .product(name: "PreferencesLive", package: "Preferences"),
    .product(name: "PreferencesData", package: "PreferencesData"),
    .product(name: "PreferencesDataSQLite", package: "PreferencesData"),
]
// The areas' services over HTTP, from flows-server (`flows --server URL`).
let remoteModules: [Target.Dependency] = [
    .product(name: "AccountsRemote", package: "AccountsRemote"),
    .product(name: "ExpensesRemote", package: "ExpensesRemote"),
    .product(name: "FriendsRemote", package: "FriendsRemote"),
    .product(name: "GroupsRemote", package: "GroupsRemote"),
    .product(name: "PreferencesRemote", package: "PreferencesRemote"),
    .product(name: "PrimitivesRemote", package: "PrimitivesRemote"),
    .product(name: "SyncRemote", package: "SyncRemote"),
    .product(name: "FlowsAPIClient", package: "FlowsAPI"),
    .product(name: "FlowsWire", package: "FlowsAPI"),
]
// The server's PostgreSQL implementations of the areas' stores, and the plumbing they share.
let postgresModules: [Target.Dependency] = [
    .product(name: "PostgresStore", package: "PostgresStore"),
    .product(name: "AccountsDataPostgres", package: "AccountsDataPostgres"),
    .product(name: "ExpensesDataPostgres", package: "ExpensesDataPostgres"),
    .product(name: "FriendsDataPostgres", package: "FriendsDataPostgres"),
    .product(name: "GroupsDataPostgres", package: "GroupsDataPostgres"),
    .product(name: "PreferencesDataPostgres", package: "PreferencesDataPostgres"),
    .product(name: "DataChangesPostgres", package: "DataChangesPostgres"),
]
// AppFlow is the root of the flow hierarchy: each flow's package depends on its children's, so
// every flow comes with it, and a new flow is added to its parent's manifest, not here.
let flowModules: [Target.Dependency] = [
    .product(name: "AppFlow", package: "AppFlow"),
]

// The Flows monorepo. Every area is its own package under Packages/, depended on by path; this
// manifest defines the `flows` app and every test target (tests inside path packages do not run).
let package = Package(
    name: "Flows",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "flows", targets: ["flows"]),
        // The same services for many users over HTTP (docs/server.md).
        .executable(name: "flows-server", targets: ["flows-server"]),
    ],
    dependencies: [
        // MARK: - The project's packages
        .package(path: "Packages/FlowKit"),
        .package(path: "Packages/FlowSupport"),
        .package(path: "Packages/Renderers/FlowTerminal"),
        .package(path: "Packages/Renderers/FlowWeb"),
        .package(path: "Packages/FlowTesting"),
        .package(path: "Packages/Services"),
        .package(path: "Packages/Infrastructure/LocalStore"),
        .package(path: "Packages/Infrastructure/PostgresStore"),
        .package(path: "Packages/Infrastructure/FlowsAPI"),
        .package(path: "Packages/Infrastructure/QRCode"),
        .package(path: "Packages/Infrastructure/Mail"),
        .package(path: "Packages/Domain/Primitives"),
        .package(path: "Packages/Domain/Accounts"),
        .package(path: "Packages/Domain/Expenses"),
        .package(path: "Packages/Domain/Friends"),
        .package(path: "Packages/Domain/Groups"),
        .package(path: "Packages/Domain/Interchange"),
        .package(path: "Packages/Domain/Preferences"),
        .package(path: "Packages/Domain/Rates"),
        .package(path: "Packages/Domain/Sync"),
        .package(path: "Packages/Data/DataChanges"),
        .package(path: "Packages/Data/AccountsData"),
        .package(path: "Packages/Data/ExpensesData"),
        .package(path: "Packages/Data/FriendsData"),
        .package(path: "Packages/Data/GroupsData"),
        .package(path: "Packages/Data/PreferencesData"),
        .package(path: "Packages/Data/Postgres/AccountsDataPostgres"),
        .package(path: "Packages/Data/Postgres/ExpensesDataPostgres"),
        .package(path: "Packages/Data/Postgres/FriendsDataPostgres"),
        .package(path: "Packages/Data/Postgres/GroupsDataPostgres"),
        .package(path: "Packages/Data/Postgres/PreferencesDataPostgres"),
        .package(path: "Packages/Data/Postgres/DataChangesPostgres"),
        .package(path: "Packages/Remote/AccountsRemote"),
        .package(path: "Packages/Remote/ExpensesRemote"),
        .package(path: "Packages/Remote/FriendsRemote"),
        .package(path: "Packages/Remote/GroupsRemote"),
        .package(path: "Packages/Remote/PreferencesRemote"),
        .package(path: "Packages/Remote/PrimitivesRemote"),
        .package(path: "Packages/Remote/SyncRemote"),
        .package(path: "Packages/Flows/AppFlow"),
        // The Expenses tab on its own, for the benchmark that times it on a replica.
        .package(path: "Packages/Flows/ExpensesFlow"),
        .package(path: "Packages/Tools/ArchitectureCheck"),

        // MARK: - Third party
        // The sockets of `flows web`'s small loopback server (FlyingSocks, without FlyingFox's
        // HTTP server, which links FoundationNetworking and so libcurl into the CLI).
        .package(url: "https://github.com/swhitty/FlyingFox", from: "0.27.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.0"),
        // Used directly by tests that look into the store and recompute token hashes.
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "4.0.0"),
        // The generated HTTP client's runtime and request types, for the tests of the contract.
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.7.0"),
        // flows-server: Hummingbird 2 serves the generated API (swift-openapi-hummingbird), logs
        // with swift-log and shuts down gracefully with swift-service-lifecycle. Hummingbird's
        // swift-configuration support is left out (its trait): the server reads its own flags.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.0", traits: ["FullFoundation"]),
        .package(url: "https://github.com/hummingbird-project/swift-openapi-hummingbird", from: "2.1.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        // The generated client's transport on Foundation's URLSession (in the toolchain: nothing
        // more to build), for the server's tests and the CLI's remote services.
        .package(url: "https://github.com/apple/swift-openapi-urlsession", from: "1.4.0"),
        // gzip for large answers (on the system's zlib), by Hummingbird's author, on NIO's
        // ByteBuffer: kept balances go out compressed to clients that take gzip.
        .package(url: "https://github.com/adam-fowler/compress-nio", from: "1.5.0"),
    ],
    targets: [
        // MARK: - The app
        .target(
            name: "FlowsApp",
            dependencies: [
                .product(name: "FlowsServices", package: "Services"),
                .product(name: "FlowKit", package: "FlowKit"),
                .product(name: "FlowTerminal", package: "FlowTerminal"),
                .product(name: "FlowTesting", package: "FlowTesting"),
                .product(name: "LocalStore", package: "LocalStore"),
                .product(name: "Primitives", package: "Primitives"),
                .product(name: "Sync", package: "Sync"),
            ] + accountsModules + expensesModules + friendsModules + groupsModules + interchangeModules + preferencesModules + ratesModules + remoteModules
                + flowModules + [
                    .product(name: "ArgumentParser", package: "swift-argument-parser"),
                    // `flows web`: the pages on loopback (LoopbackServer says why on FlyingSocks).
                    .product(name: "FlowWeb", package: "FlowWeb"),
                    .product(name: "FlyingSocks", package: "FlyingFox"),
                ],
            path: "Apps/flows/Sources/FlowsApp"
        ),
        .executableTarget(
            name: "flows", dependencies: ["FlowsApp"], path: "Apps/flows/Sources/flows",
            // Exports only the symbols its libraries use (576 in a release build, not the 26,500
            // Swift's -export-dynamic gives): the loader's look-ups and the runtime's dladdr of
            // its own path search a short table, 0.7 ms of a start (docs/architecture.md).
            linkerSettings: [.unsafeFlags(["-Xlinker", "--no-export-dynamic"])]
        ),

        // MARK: - The server
        .target(
            name: "FlowsServer",
            dependencies: [
                .product(name: "FlowsServices", package: "Services"),
                .product(name: "FlowsAPI", package: "FlowsAPI"),
                .product(name: "LocalStore", package: "LocalStore"),
                .product(name: "Primitives", package: "Primitives"),
            ] + accountsModules + expensesModules + friendsModules + groupsModules + preferencesModules + syncModules + postgresModules + [
                // The contract's operations and values, declared once for both sides.
                .product(name: "FlowsWire", package: "FlowsAPI"),
                .product(name: "PrimitivesRemote", package: "PrimitivesRemote"),
                .product(name: "AccountsRemote", package: "AccountsRemote"),
                .product(name: "FriendsRemote", package: "FriendsRemote"),
                .product(name: "GroupsRemote", package: "GroupsRemote"),
                .product(name: "PreferencesRemote", package: "PreferencesRemote"),
                .product(name: "ExpensesRemote", package: "ExpensesRemote"),
                .product(name: "SyncRemote", package: "SyncRemote"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "OpenAPIHummingbird", package: "swift-openapi-hummingbird"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "CompressNIO", package: "compress-nio"),
                // SHA-256 of the keys sign-in attempts are counted under, in the shared database.
                .product(name: "Crypto", package: "swift-crypto"),
                // The codes that prove emails.
                .product(name: "Mail", package: "Mail"),
                // The app's flows as web pages, at `/`.
                .product(name: "FlowWeb", package: "FlowWeb"),
                .product(name: "FlowKit", package: "FlowKit"),
            ] + flowModules + ratesModules,
            path: "Apps/flows-server/Sources/FlowsServer"
        ),
        .executableTarget(
            name: "flows-server",
            dependencies: [
                "FlowsServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "Apps/flows-server/Sources/flows-server"
        ),

        // MARK: - Benchmarks
        // The arithmetic the benchmarks print their figures with.
        .target(name: "BenchmarkSupport", path: "Benchmarks/BenchmarkSupport"),
        // The baseline for the start-up benchmark: a hello world built exactly like `flows`.
        .executableTarget(name: "hello", path: "Benchmarks/hello"),
        // The same with swift-argument-parser: the floor for any command-line tool built on it.
        .executableTarget(
            name: "hello-cli",
            dependencies: [.product(name: "ArgumentParser", package: "swift-argument-parser")],
            path: "Benchmarks/hello-cli"
        ),
        // The harness, timed in process: a scripted SignUp run and the whole golden suite.
        .executableTarget(
            name: "flows-bench",
            dependencies: ["FlowsApp", "BenchmarkSupport", .product(name: "FlowTesting", package: "FlowTesting")],
            path: "Benchmarks/flows-bench"
        ),
        // The Friends tab and a friend's preview with 1,000 friends and 100,000 shared expenses.
        .executableTarget(
            name: "friends-bench",
            dependencies: ["FlowsApp", "BenchmarkSupport", .product(name: "FlowKit", package: "FlowKit"), .product(name: "Primitives", package: "Primitives")]
                + accountsModules + expensesModules + friendsModules,
            path: "Benchmarks/friends-bench"
        ),
        // A group of 50 with 100,000 expenses: the Groups tab, GroupDetail, adding in a group.
        .executableTarget(
            name: "groups-bench",
            dependencies: ["FlowsApp", "BenchmarkSupport", .product(name: "FlowKit", package: "FlowKit"), .product(name: "Primitives", package: "Primitives")]
                + accountsModules + expensesModules + friendsModules + groupsModules,
            path: "Benchmarks/groups-bench"
        ),
        // A 50,000-row Splitwise export: reading, planning and importing it, with peak memory.
        .executableTarget(
            name: "import-bench",
            dependencies: [
                "FlowsApp", "BenchmarkSupport", .product(name: "Primitives", package: "Primitives"), .product(name: "LocalStore", package: "LocalStore"),
            ] + interchangeModules,
            path: "Benchmarks/import-bench"
        ),
        // flows-server under wrk (Scripts/bench): seeds a PostgreSQL world through the services,
        // recounts it, and serves the bare Hummingbird route the figures are compared with.
        .executableTarget(
            name: "server-bench",
            dependencies: [
                "FlowsServer",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "PostgresStore", package: "PostgresStore"),
                .product(name: "Primitives", package: "Primitives"),
                .product(name: "Accounts", package: "Accounts"),
                .product(name: "AccountsData", package: "AccountsData"),
                .product(name: "Expenses", package: "Expenses"),
                .product(name: "Friends", package: "Friends"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Benchmarks/server-bench"
        ),
        // A replica's pull at scale: a first sync of a long history, then an incremental one.
        .executableTarget(
            name: "sync-bench",
            dependencies: [
                "FlowsServer", "FlowsApp", "BenchmarkSupport",
                .product(name: "FlowKit", package: "FlowKit"),
                .product(name: "ExpensesFlow", package: "ExpensesFlow"),
                .product(name: "LocalStore", package: "LocalStore"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Primitives", package: "Primitives"),
                .product(name: "AccountsData", package: "AccountsData"),
                .product(name: "Expenses", package: "Expenses"),
                .product(name: "Friends", package: "Friends"),
                .product(name: "Sync", package: "Sync"),
            ],
            path: "Benchmarks/sync-bench"
        ),
        // The ledger on SQLite: adding expenses, reading balances among a million, simplifying.
        .executableTarget(
            name: "ledger-bench",
            dependencies: expensesModules + [
                .product(name: "Primitives", package: "Primitives"),
                .product(name: "LocalStore", package: "LocalStore"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            path: "Benchmarks/ledger-bench"
        ),

        // MARK: - Tests
        // A process that writes to a store until it is stopped or killed, reporting each write
        // it finished: what the kill -9 and several-processes tests drive.
        .executableTarget(
            name: "flows-writer",
            dependencies: [
                .product(name: "FlowsServices", package: "Services"),
                .product(name: "LocalStore", package: "LocalStore"),
                .product(name: "Primitives", package: "Primitives"),
                .product(name: "Accounts", package: "Accounts"),
                .product(name: "AccountsLive", package: "Accounts"),
                .product(name: "Expenses", package: "Expenses"),
                .product(name: "Friends", package: "Friends"),
            ],
            path: "Tests/Writer"
        ),
        .testTarget(
            name: "FlowWebTests",
            dependencies: [
                .product(name: "FlowKit", package: "FlowKit"),
                .product(name: "FlowWeb", package: "FlowWeb"),
            ]
        ),
        .testTarget(
            name: "FlowKitTests",
            dependencies: [
                .product(name: "FlowKit", package: "FlowKit"),
                .product(name: "FlowTerminal", package: "FlowTerminal"),
                .product(name: "QRCode", package: "QRCode"),
            ]
        ),
        .testTarget(
            name: "PrimitivesTests",
            dependencies: [
                .product(name: "Primitives", package: "Primitives"),
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(
            name: "ExpensesTests",
            dependencies: [
                .product(name: "Primitives", package: "Primitives"),
                .product(name: "Expenses", package: "Expenses"),
                .product(name: "ExpensesLive", package: "Expenses"),
                .product(name: "ExpensesData", package: "ExpensesData"),
                .product(name: "ExpensesDataSQLite", package: "ExpensesData"),
                .product(name: "LocalStore", package: "LocalStore"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(
            name: "AccountsTests",
            dependencies: [
                .product(name: "Primitives", package: "Primitives"),
            ] + accountsModules + [
                .product(name: "LocalStore", package: "LocalStore"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .testTarget(
            name: "FriendsTests",
            dependencies: [
                .product(name: "FlowsServices", package: "Services"),
                .product(name: "Primitives", package: "Primitives"),
            ] + accountsModules + expensesModules + friendsModules + [
                .product(name: "LocalStore", package: "LocalStore"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(
            name: "GroupsTests",
            dependencies: [
                .product(name: "FlowsServices", package: "Services"),
                .product(name: "Primitives", package: "Primitives"),
            ] + accountsModules + expensesModules + friendsModules + groupsModules + [
                .product(name: "LocalStore", package: "LocalStore"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .testTarget(
            name: "InterchangeTests",
            dependencies: [
                .product(name: "FlowsServices", package: "Services"),
                .product(name: "Primitives", package: "Primitives"),
            ] + accountsModules + expensesModules + friendsModules + groupsModules + interchangeModules + [
                .product(name: "LocalStore", package: "LocalStore"),
            ]
        ),
        .testTarget(
            name: "RatesTests",
            dependencies: [
                .product(name: "Primitives", package: "Primitives"),
            ] + ratesModules
        ),
        .testTarget(
            name: "PreferencesTests",
            dependencies: [
                .product(name: "Primitives", package: "Primitives"),
            ] + preferencesModules + [
                .product(name: "LocalStore", package: "LocalStore"),
            ]
        ),
        // The PostgreSQL stores under the live services, compared with SQLite; they run against the
        // database at FLOWS_TEST_DATABASE_URL (Scripts/test starts one) and are skipped without it.
        .testTarget(
            name: "PostgresTests",
            dependencies: [
                "FlowsServer",
                .product(name: "FlowsServices", package: "Services"),
                .product(name: "Primitives", package: "Primitives"),
            ] + accountsModules + expensesModules + friendsModules + groupsModules + interchangeModules + preferencesModules + syncModules
                + postgresModules
        ),
        .testTarget(
            name: "FlowsTests",
            dependencies: [
                "FlowsApp",
                .product(name: "FlowKit", package: "FlowKit"),
                .product(name: "FlowTestSupport", package: "FlowTesting"),
                .product(name: "FormFields", package: "FlowSupport"),
                .product(name: "ArchitectureRules", package: "ArchitectureCheck"),
                .product(name: "Primitives", package: "Primitives"),
                .product(name: "Sync", package: "Sync"),
            ] + accountsModules + expensesModules + friendsModules + groupsModules + interchangeModules + preferencesModules + ratesModules + flowModules + [
                .product(name: "LocalStore", package: "LocalStore"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .testTarget(
            name: "FlowTestingTests",
            dependencies: [
                "FlowsApp",
                .product(name: "FlowKit", package: "FlowKit"),
                .product(name: "FlowTesting", package: "FlowTesting"),
                .product(name: "FlowTestSupport", package: "FlowTesting"),
                .product(name: "FlowTerminal", package: "FlowTerminal"),
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(
            name: "CLITests",
            dependencies: [
                "FlowsApp",
                .product(name: "FlowsServices", package: "Services"),
                .product(name: "LocalStore", package: "LocalStore"),
                .product(name: "Preferences", package: "Preferences"),
                .product(name: "Expenses", package: "Expenses"),
                .product(name: "Primitives", package: "Primitives"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .testTarget(
            name: "APITests",
            dependencies: [
                .product(name: "FlowsAPI", package: "FlowsAPI"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
        .testTarget(
            name: "ServerTests",
            dependencies: [
                "FlowsServer",
                .product(name: "FlowsServices", package: "Services"),
                "FlowsApp",
                .product(name: "FlowTesting", package: "FlowTesting"),
                .product(name: "LocalStore", package: "LocalStore"),
                .product(name: "FlowsAPI", package: "FlowsAPI"),
                .product(name: "Primitives", package: "Primitives"),
            ] + accountsModules + expensesModules + friendsModules + groupsModules + preferencesModules + syncModules + remoteModules + postgresModules + [
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Mail", package: "Mail"),
            ]
        ),
        .testTarget(
            name: "MailTests",
            dependencies: [.product(name: "Mail", package: "Mail")]
        ),
        .testTarget(
            name: "QRCodeTests",
            dependencies: [.product(name: "QRCode", package: "QRCode")]
        ),
        .testTarget(
            name: "ArchitectureTests",
            dependencies: [.product(name: "ArchitectureRules", package: "ArchitectureCheck")]
        ),
    ]
)

for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("ExistentialAny")]
}
