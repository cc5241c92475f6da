// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "uaaudit",
    products: [
        .executable(name: "uaaudit", targets: ["uaaudit"]),
        .library(name: "UAAuditCore", targets: ["UAAuditCore"]),
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
        .target(
            name: "UAAuditCore",
            dependencies: ["CPCRE2", "CZlib", "CSHA256", "CUAScan"]
        ),
        // The version and commit for `--version`, written from VERSION and git before each build.
        .plugin(name: "BuildInfoPlugin", capability: .buildTool()),
        // The webhook transport on libcurl, outside the core (which only knows HTTPTransport).
        .target(name: "UAAuditCurl", dependencies: ["UAAuditCore", "CCurl"]),
        .target(name: "UAAuditCLI", dependencies: ["UAAuditCore", "UAAuditCurl"], plugins: ["BuildInfoPlugin"]),
        .executableTarget(name: "uaaudit", dependencies: ["UAAuditCLI"]),
        // A loopback HTTP receiver that answers like WeCom, Slack and the others; for the tests only.
        .target(
            name: "WebhookReceiver", path: "Tests/WebhookReceiver",
            exclude: ["receiver.py", "test-tls.crt", "test-tls.key", "test-tls-other.crt", "test-tls-other.key"]),
        .testTarget(
            name: "UAAuditCoreTests", dependencies: ["UAAuditCore", "UAAuditCurl", "WebhookReceiver"],
            exclude: ["Report/Fixtures", "Alerting/Channels/Golden"]),
        .testTarget(name: "UAAuditCLITests", dependencies: ["UAAuditCLI", "UAAuditCore"]),
        .testTarget(
            name: "EndToEndTests", dependencies: ["UAAuditCore", "uaaudit", "WebhookReceiver"], exclude: ["Fixtures"]),
    ],
    swiftLanguageModes: [.v6]
)
