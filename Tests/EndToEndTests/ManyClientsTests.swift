import Foundation
import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

#if canImport(Glibc)
    import Glibc
#endif

/// Ten million distinct client keys in one hour: the scan stays under the memory bound and
/// its split estimate is within the documented error (three standard errors).
@Suite struct ManyClientsTests {
    static let clients = 10_000_000
    static let format = #"$remote_addr [$time_local] "$http_user_agent""#

    /// Client k sends one URLSession request; every tenth client also an old SDK's request.
    static func writeLog(to path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        try #require(fd >= 0)
        defer { close(fd) }
        let app = Array(#" [29/Nov/2026:17:10:00 +0000] "MyApp/5.12.1 (iPhone; iOS 17_4)""#.utf8) + [0x0A]
        let sdk = Array(#" [29/Nov/2026:17:20:00 +0000] "YourSDK/1.0 com.apple.CFNetwork/1494.0.7""#.utf8) + [0x0A]
        var buffer: [UInt8] = []
        buffer.reserveCapacity(1 << 22)
        var address = [UInt8](repeating: 0, count: 16)
        for k in 0..<clients {
            var n = 0
            for (i, part) in [10, (k >> 16) & 255, (k >> 8) & 255, k & 255].enumerated() {
                if i > 0 {
                    address[n] = 0x2E
                    n += 1
                }
                if part >= 100 {
                    address[n] = UInt8(0x30 + part / 100)
                    n += 1
                }
                if part >= 10 {
                    address[n] = UInt8(0x30 + part / 10 % 10)
                    n += 1
                }
                address[n] = UInt8(0x30 + part % 10)
                n += 1
            }
            buffer.append(contentsOf: address[0..<n])
            buffer.append(contentsOf: app)
            if k % 10 == 0 {
                buffer.append(contentsOf: address[0..<n])
                buffer.append(contentsOf: sdk)
            }
            if buffer.count >= (1 << 22) - 256 {
                try #require(MeasuredRun.writeAll(fd, buffer))
                buffer.removeAll(keepingCapacity: true)
            }
        }
        try #require(MeasuredRun.writeAll(fd, buffer))
    }

    @Test(.requires(.python3)) func tenMillionClientsStayUnderTheBoundAndEstimateTheSplitWithinItsError() throws {
        let dir = try Scratch()
        let log = dir.path("clients.log")
        try Self.writeLog(to: log)
        let result = try MeasuredRun.run(
            ["scan", "--json", "-j", "2", "--log-format", Self.format, log], stdinFile: "/dev/null")
        #expect(result.status == 0, "\(result.stderr)")
        let idle = try MeasuredRun.idleKiB(options: ["-j", "2", "--log-format", Self.format])
        print("ten million clients: peak RSS \(result.peakKiB) KiB (idle \(idle) KiB)")
        if !Tool.underSanitizer { #expect(result.peakKiB <= idle + MeasuredRun.workingMemoryKiB) }
        let report = try ReportEncoding.decode(result.stdout)
        #expect(report.totals.requests == 11_000_000)
        let c = try #require(report.hours.first?.clients)
        #expect(report.hours.count == 1)
        #expect(!c.exact && c.sampleRate < 1)
        // The truth: 10,000,000 app clients, 1,000,000 with the SDK too, all of them split.
        #expect(abs(Double(c.split - 1_000_000)) <= 3 * c.splitError, "split \(c.split) ± \(c.splitError)")
        #expect(c.splitError > 0 && c.splitError < 20_000)
        let appError = c.splitError * (10.0).squareRoot()  // the same rate over ten times the clients
        #expect(abs(Double(c.app - 10_000_000)) <= 3 * appError, "app \(c.app)")
        #expect(abs(Double(c.alert - 1_000_000)) <= 3 * c.splitError, "alert \(c.alert)")
    }
}
