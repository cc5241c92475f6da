// swift-tools-version:6.0
// libFuzzer targets for uaaudit's parsers, built and run by Fuzz/run.sh with
// -sanitize=fuzzer,address. A package of its own, so `swift test` is unaffected; the core
// library's sources are the main package's (symbolic links under Sources/).
import PackageDescription

let package = Package(
    name: "uaaudit-fuzz",
    targets: [
        .systemLibrary(name: "CPCRE2", pkgConfig: "libpcre2-8", providers: [.apt(["libpcre2-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CFuzzerDriver"),
        .target(name: "CUAScan"),
        .target(name: "CSHA256"),
        .target(name: "UAAuditCore", dependencies: ["CPCRE2", "CZlib", "CSHA256", "CUAScan"]),
        .executableTarget(name: "uaaudit-fuzz", dependencies: ["UAAuditCore", "CFuzzerDriver"]),
    ],
    swiftLanguageModes: [.v6]
)
