// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "uaaudit",
    products: [
        .executable(name: "uaaudit", targets: ["uaaudit"])
    ],
    targets: [
        .systemLibrary(
            name: "CPCRE2",
            pkgConfig: "libpcre2-8",
            providers: [.apt(["libpcre2-dev"])]
        ),
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        // libcurl's headers only: the library is loaded with dlopen on the first delivery (no
        // pkgConfig, which would link it into every run; see Sources/CCurl/shim.h).
        .systemLibrary(
            name: "CCurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        // The tokenizer's byte scanning and the table hash, in C with SSE2 (every amd64 has it).
        .target(name: "CUAScan"),
        // SHA-256 in C (portable, and the x86 SHA extensions chosen at run time), so that
        // the binary does not load libcrypto for two hash functions.
        .target(name: "CSHA256"),
        // The core: one target per stage of the pipeline, each importing only the stages
        // before it (the compiler keeps the order; docs/architecture.md draws it).
        // A log's bytes and its format: support code, reading files, gzip and stdin into lines,
        // the nginx log_format and nginx.conf.
        .target(name: "UAAuditInput", dependencies: ["CZlib", "CSHA256"]),
        // Auditing the lines, the whole per-line path in one module (so that it inlines): the
        // tokenizer, time, the UA cache and classes, the chunked scan, the hour's tallies and
        // insight.
        .target(name: "UAAuditAudit", dependencies: ["UAAuditInput", "CPCRE2", "CUAScan"]),
        // The report: building it, merging reports, HTML and Prometheus.
        .target(name: "UAAuditReport", dependencies: ["UAAuditAudit"]),
        // Running it: `run`'s transaction and state, alert delivery, doctor's diagnosis.
        .target(name: "UAAuditRun", dependencies: ["UAAuditReport"]),
        // The version and commit for `--version`, written from VERSION and git before each build.
        .plugin(name: "BuildInfoPlugin", capability: .buildTool()),
        // The webhook transport on libcurl, outside the core (which only knows HTTPTransport).
        .target(name: "UAAuditCurl", dependencies: ["UAAuditRun", "CCurl"]),
        .target(
            name: "UAAuditCLI",
            dependencies: ["UAAuditInput", "UAAuditAudit", "UAAuditReport", "UAAuditRun", "UAAuditCurl"],
            plugins: ["BuildInfoPlugin"]),
        .executableTarget(name: "uaaudit", dependencies: ["UAAuditCLI"]),
        // A loopback HTTP receiver that answers like WeCom, Slack and the others; for the tests only.
        .target(
            name: "WebhookReceiver", path: "Tests/WebhookReceiver",
            exclude: ["receiver.py", "test-tls.crt", "test-tls.key", "test-tls-other.crt", "test-tls-other.key"]),
        .testTarget(
            name: "UAAuditCoreTests",
            dependencies: [
                "UAAuditInput", "UAAuditAudit", "UAAuditReport", "UAAuditRun", "UAAuditCurl", "WebhookReceiver",
            ],
            exclude: ["Report/Fixtures", "Alerting/Channels/Golden"]),
        .testTarget(
            name: "UAAuditCLITests",
            dependencies: ["UAAuditCLI", "UAAuditInput", "UAAuditAudit", "UAAuditReport", "UAAuditRun"]),
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "UAAuditInput", "UAAuditAudit", "UAAuditReport", "UAAuditRun", "uaaudit", "WebhookReceiver",
            ], exclude: ["Fixtures"]),
    ],
    swiftLanguageModes: [.v6]
)
