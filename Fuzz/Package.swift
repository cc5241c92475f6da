// swift-tools-version:6.0
// libFuzzer targets for uaaudit's parsers, built and run by Fuzz/run.sh with
// -sanitize=fuzzer,address. A package of its own, so `swift test` is unaffected; the core's
// four stage targets are the main package's (symbolic links under Sources/).
import PackageDescription

let package = Package(
    name: "uaaudit-fuzz",
    targets: [
        .systemLibrary(name: "CPCRE2", pkgConfig: "libpcre2-8", providers: [.apt(["libpcre2-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CFuzzerDriver"),
        .target(name: "CUAScan"),
        .target(name: "CSHA256"),
        .target(name: "UAAuditInput", dependencies: ["CZlib", "CSHA256"]),
        .target(name: "UAAuditAudit", dependencies: ["UAAuditInput", "CPCRE2", "CUAScan"]),
        .target(name: "UAAuditReport", dependencies: ["UAAuditAudit"]),
        .target(name: "UAAuditRun", dependencies: ["UAAuditReport"]),
        .executableTarget(
            name: "uaaudit-fuzz", dependencies: ["UAAuditInput", "UAAuditAudit", "UAAuditRun", "CFuzzerDriver"]),
    ],
    swiftLanguageModes: [.v6]
)
