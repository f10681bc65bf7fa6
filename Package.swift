// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "winback",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "winback", targets: ["winback"])
    ],
    dependencies: [
        // ES256 (P-256 ECDSA) signatures and SHA-256: JWS verification, offer signing, manifest digests.
        .package(url: "https://github.com/apple/swift-crypto.git", "3.12.3"..<"5.0.0"),
        // X.509 parsing and RFC 5280 path validation of the x5c chain; the test PKI of sample-data.
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
        // DER/ASN.1 for certificate extensions (Apple marker OIDs) and ECDSA signature encodings.
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.7.4"),
        // The `winback` command line.
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        // The offer ledger: SQLite with migrations and transactions (system libsqlite3-dev).
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        // `winback serve` (docs/retention-messaging.md): HTTP/1.1 on SwiftNIO's event loops (NIOPosix, NIOHTTP1), HTTPS through
        // swift-nio-ssl. Measured here: the two add 2:07 of wall time (240 s CPU, BoringSSL most of it) to a cold
        // debug build on 2 cores and 35 MB to the binary. SwiftNIO handlers rather than Hummingbird 2 (71 s of cold
        // build alone, plus swift-http-types, -nio-extras, -algorithms, -numerics, -configuration): serve's handler
        // is its connection limit, per-request read deadline and ordered error answers, which would be channel
        // handlers under Hummingbird too (docs/performance.md, Session 27).
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.3"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        // Every outgoing request (sync, history, deliver): AsyncHTTPClient on the SwiftNIO above. Chosen over Foundation's
        // URLSession (libcurl), which inflated an unrequested gzip answer whole before any limit applied and, on a dropped
        // connection, re-sent a request's headers on its own (issues 51, 52): this client sends each request once,
        // decompresses nothing, and streams the body to our bound. Measured here: 1:39 of wall time (187 s CPU) more on a
        // cold build (it shares SwiftNIO and swift-nio-ssl; adds swift-nio-http2, -extras, -transport-services, swift-log,
        // swift-distributed-tracing), ~9 MB on the release binary.
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        // What the commands say on stderr (progress, warnings, rejects): swift-log's Logger with our handler, which keeps the
        // lines' formats (docs/operations.md). Already in the build through async-http-client; named for our own use.
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        // Counters, gauges and histograms (swift-metrics) kept in a Prometheus registry (swift-prometheus) that renders
        // serve's GET /metrics and every command's --metrics-file (node_exporter's textfile collector): no exposition
        // text written by hand.
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        // `winback serve`'s lifecycle: SIGTERM/SIGINT start a graceful shutdown, SIGHUP reloads (its UnixSignals).
        // With swift-metrics and swift-prometheus: +5 s of cold debug build, +10 MB of debug binary (Session 27).
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
    ],
    targets: [
        // The pure modules (no I/O, clock or randomness), each one idea, each depending only on those above it:
        // the App Store's wire models, JSON reading and instants;
        .target(name: "WinbackAppStore"),
        // the analytics: records as accepted, the subscription model, the reports and money;
        .target(name: "WinbackAnalytics", dependencies: ["WinbackAppStore"]),
        // what a developer configures and decides: config, campaigns, Retention Messaging, campaign outcomes;
        .target(name: "WinbackCore", dependencies: ["WinbackAppStore", "WinbackAnalytics"]),
        // who is about to leave: the renewal outlook's estimate, rows and backtest.
        .target(name: "WinbackOutlook", dependencies: ["WinbackAppStore", "WinbackAnalytics"]),
        // report.html: its sections, charts and tables, drawn from the reports' values.
        .target(name: "WinbackReportPage", dependencies: ["WinbackAppStore", "WinbackAnalytics", "WinbackCore", "WinbackOutlook"]),
        // base64url decoded 32 / 16 characters at a time with AVX2 / SSSE3 (JWS payloads and signatures).
        .target(name: "CBase64"),
        // JWS parsing and verification through the x5c chain; signing.
        .target(
            name: "WinbackCrypto",
            dependencies: [
                "WinbackAppStore", "WinbackAnalytics", "CBase64",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ]
        ),
        // The ingest, from input files to deduplicated payloads (one entry point, `IngestStage.run`): reading
        // batches, the ordered window of verifying workers, the verified store, line scanning, the flat payload
        // decoder, interning, each worker's cache, deduplication.
        .target(
            name: "WinbackIngest",
            dependencies: [
                "WinbackAppStore", "WinbackAnalytics", "WinbackCore", "WinbackCrypto", "WinbackIO",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ]
        ),
        // The system zlib (apt: zlib1g-dev), for streaming gzip in and out.
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // Gzip in C over two engines: a streaming inflater (exports) and a one-shot deflater (Parquet pages).
        // ISA-L's igzip inflates exports and deflates pages several times faster than zlib (docs/performance.md);
        // it is optional: used when the build saw its header (apt: libisal-dev) and libisal.so.2 loads at run
        // time (dlopen), so nothing links it. zlib does both otherwise.
        .target(name: "CGzip", linkerSettings: [.linkedLibrary("z"), .linkedLibrary("dl")]),
        // Typed Parquet tables beside the CSV (docs/analysts.md): our own small writer (no usable Swift Parquet library
        // here), pages compressed as gzip members by CGzip.
        .target(name: "WinbackParquet", dependencies: ["CGzip"]),
        // Files: byte sources (digested: SHA-256 for the manifest), gzip streams, line reading, globs; report
        // writers, atomic publishing and the run lock; a phase's progress on stderr.
        .target(
            name: "WinbackIO",
            dependencies: [
                "WinbackAppStore", "WinbackAnalytics", "CZlib", "CGzip", .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The jobs: run, merge (shards), verify, sign, campaigns; the offer ledger; what every job shares
        // (Support/). Effects (files, clock, randomness) live here and above.
        .target(
            name: "WinbackJobs",
            dependencies: [
                "WinbackAppStore", "WinbackAnalytics", "WinbackCore", "WinbackOutlook", "WinbackReportPage", "WinbackCrypto",
                "WinbackIngest", "WinbackIO", "WinbackParquet",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "GRDB", package: "GRDB.swift"),
                // GRDB's own SQLite module (same package): the ledger binds a day's rows straight to its insert.
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ]
        ),
        // The jobs that speak HTTP to others: sync and history from the App Store Server API, deliver to the
        // marketing tools; the HTTP transport (AsyncHTTPClient) and the one retry loop.
        .target(
            name: "WinbackRemote",
            dependencies: [
                "WinbackAppStore", "WinbackAnalytics", "WinbackCore", "WinbackCrypto", "WinbackIO", "WinbackJobs",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ]
        ),
        // Demo data: `winback sample-data`'s simulator and its TEST-ONLY PKI (tests sign their fixtures with it).
        // Kept out of WinbackJobs so the nightly job's library carries no test PKI.
        .target(
            name: "WinbackSampleData",
            dependencies: [
                "WinbackAppStore", "WinbackAnalytics", "WinbackCore", "WinbackCrypto", "WinbackIO", "WinbackJobs",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ]
        ),
        // `winback bench`: micro-benchmarks of the hot paths (docs/performance.md).
        .target(
            name: "WinbackBench",
            dependencies: [
                "WinbackAppStore", "WinbackAnalytics", "WinbackCore", "WinbackCrypto", "WinbackIngest", "WinbackIO", "WinbackJobs",
                "WinbackSampleData",
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // `winback serve`: its service (Service/: Retention Messaging answers, pushed notifications, /metrics) and the
        // wire — the HTTP server (SwiftNIO), TLS, and its lifecycle (swift-service-lifecycle: signals, graceful shutdown). The nightly jobs do not link it.
        .target(
            name: "WinbackServer",
            dependencies: [
                "WinbackAppStore", "WinbackAnalytics", "WinbackCore", "WinbackCrypto", "WinbackJobs", "WinbackIO",
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ]
        ),
        // The executable: flag parsing only.
        .executableTarget(
            name: "winback",
            dependencies: [
                "WinbackJobs", "WinbackRemote", "WinbackAppStore", "WinbackAnalytics", "WinbackIO", "WinbackServer", "WinbackSampleData",
                "WinbackBench",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        // Shared test material: test PKI, JWS builders, conformance vectors, paths.
        .target(
            name: "WinbackTestSupport",
            dependencies: [
                "WinbackAppStore", "WinbackAnalytics", "WinbackCrypto", "WinbackIngest", "WinbackIO", "WinbackJobs",
                "WinbackSampleData",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
            ],
            path: "Tests/WinbackTestSupport",
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "WinbackCoreTests",
            dependencies: [
                "WinbackAppStore", "WinbackAnalytics", "WinbackCore", "WinbackOutlook", "WinbackReportPage", "WinbackCrypto",
                "WinbackTestSupport",
            ]
        ),
        .testTarget(
            name: "WinbackCryptoTests",
            dependencies: [
                "WinbackAppStore", "WinbackAnalytics", "WinbackCrypto", "WinbackTestSupport",
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .testTarget(
            name: "WinbackIngestTests",
            dependencies: ["WinbackAppStore", "WinbackAnalytics", "WinbackCore", "WinbackCrypto", "WinbackIngest", "WinbackTestSupport"]),
        .testTarget(name: "WinbackIOTests", dependencies: ["WinbackIO", "WinbackTestSupport"]),
        .testTarget(name: "WinbackParquetTests", dependencies: ["WinbackParquet", "WinbackIO"]),
        .testTarget(
            name: "WinbackJobsTests",
            dependencies: [
                "WinbackJobs", "WinbackRemote", "WinbackAppStore", "WinbackAnalytics", "WinbackCore", "WinbackOutlook", "WinbackReportPage",
                "WinbackIngest",
                "WinbackIO",
                "WinbackSampleData", "WinbackServer", "WinbackTestSupport", "winback",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
    ]
)

// `any` spelled out wherever a protocol is used as a type (Swift 6's upcoming ExistentialAny), in every Swift target.
for target in package.targets where [.regular, .executable, .test].contains(target.type) && !target.name.hasPrefix("C") {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("ExistentialAny")]
}
