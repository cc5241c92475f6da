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
        .target(
            name: "UAAuditCore",
            dependencies: ["CPCRE2", "CZlib"],
            swiftSettings: [.unsafeFlags(["-Ounchecked"], .when(configuration: .release))]
        ),
        .target(name: "UAAuditCLI", dependencies: ["UAAuditCore"]),
        .executableTarget(name: "uaaudit", dependencies: ["UAAuditCLI"]),
        .testTarget(name: "UAAuditCoreTests", dependencies: ["UAAuditCore"], exclude: ["Report/Fixtures"]),
        .testTarget(name: "UAAuditCLITests", dependencies: ["UAAuditCLI", "UAAuditCore"]),
        .testTarget(name: "EndToEndTests", dependencies: ["UAAuditCore", "uaaudit"]),
    ],
    swiftLanguageModes: [.v6]
)
