import Foundation
import Testing

/// A libcurl older than 7.85.0 (the package's Depends: and CCurl's UAAUDIT_CURL_MINIMUM) is
/// named as such on delivery, not left to fail on an unknown option: a stand-in libcurl.so.4
/// that reports 7.74.0, found first through LD_LIBRARY_PATH.
@Suite struct OldLibcurlTests {
    /// curl_version_info as an old libcurl answers it: the three leading fields of
    /// curl_version_info_data are all uaaudit reads before it refuses.
    static let stub = """
        struct info { int age; const char *version; unsigned int version_num; };
        static struct info old = { 9, "7.74.0", 0x074a00 };
        struct info *curl_version_info(int stamp) { (void)stamp; return &old; }
        """

    /// The C compiler: the toolchain's clang (SwiftPM needs it) or the system's cc.
    static func compiler() -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let candidates = path.split(separator: ":").flatMap { ["\($0)/clang", "\($0)/cc"] } + ["/usr/bin/cc"]
        return candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) })
    }

    @Test func anOldLibcurlIsNamedOnDelivery() throws {
        let compiler = try #require(Self.compiler(), "no C compiler (clang or cc) on PATH")
        let dir = try Scratch()
        let source = try dir.write("stub.c", Self.stub)
        let built = try ExternalTool.run(compiler, ["-shared", "-fPIC", "-o", dir.path("libcurl.so.4"), source])
        #expect(built.status == 0, "\(built.stderr)")
        let result = try Tool.run(
            ["alert", "test", "--webhook", "http://127.0.0.1:9/hook", "--webhook-kind", "generic", "--webhook-retries", "0"],
            environment: ["LD_LIBRARY_PATH": dir.url.path])
        #expect(result.status == 4, "\(result.stderr)")
        #expect(result.out.contains("libcurl 7.74.0 is too old: uaaudit needs 7.85.0 or newer"), "\(result.out)")
    }
}
