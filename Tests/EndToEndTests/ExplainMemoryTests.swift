import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `explain` of logs streams them as `scan` does: a JSON-lines access log (whose first byte
/// is `{`, like a report's) is read no further than its second line to tell it from a report,
/// so its peak memory is CONTRACTS' idle + 16 MiB whatever its size (it was the log's size).
@Suite struct ExplainMemoryTests {
    static let format =
        #"{"time_local":"$time_local","request":"$request","status":$status,"ua":"$http_user_agent"}"#

    @Test(.requires(.python3)) func aBigJSONLinesLogIsStreamed() throws {
        let dir = try Scratch()
        let path = dir.path("access.json.log")
        // 8,000 lines of about 160 bytes per block, 96 blocks: 123 MB in the 17:00 hour.
        var block: [UInt8] = []
        for i in 0..<8_000 {
            let ua = i % 4_000 == 0 ? Lines.cfnetwork : Lines.urlsession
            block +=
                Array(
                    #"{"time_local":"29/Nov/2026:17:18:40 +0800","request":"GET /api/v2/me?i=\#(i) HTTP/1.1","status":200,"ua":"\#(ua)"}"#
                        .utf8) + [0x0A]
        }
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        try #require(fd >= 0)
        for _ in 0..<96 { try #require(MeasuredRun.writeAll(fd, block)) }
        close(fd)

        let options = ["--log-format", Self.format, "--escape", "json"]
        let result = try MeasuredRun.run(
            ["explain", "2026-11-29T17", "--json"] + options + [path], stdinFile: "/dev/null")
        #expect(result.status == 0, "\(result.stderr)")
        let page = try unwrap(JSONSerialization.jsonObject(with: Data(result.stdout)) as? [String: Any])
        let hour = try unwrap(page["hour"] as? [String: Any])
        #expect(hour["requests"] as? Int == 96 * 8_000)
        #expect((hour["classes"] as? [String: Int])?["inconsistent"] == 96 * 2)
        #expect((hour["classes"] as? [String: Int])?["urlsession"] == 96 * 7_998)
        let idle = try MeasuredRun.idleKiB(options: options)
        let bound = idle + MeasuredRun.workingMemoryKiB
        print(
            "explain of a 123 MB JSON-lines log: peak RSS \(result.peakKiB) KiB (idle \(idle) KiB, bound \(bound) KiB)")
        #expect(result.peakKiB > 0)
        if Tool.underSanitizer { return }
        #expect(result.peakKiB <= bound)
    }
}
