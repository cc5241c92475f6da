import Foundation
import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

/// The figures beyond counting, from a log whose truth the test knows line by line, scanned in
/// one chunk and in several: chunks must merge to the same statuses, paths and clients.
@Suite struct ScannerInsightTests {
    struct Truth {
        var text = ""
        var statuses: [String: StatusCounts] = [:]
        var paths: [String: PathCount] = [:]
        var kinds: [String: UInt8] = [:]
    }

    static func log() -> Truth {
        var t = Truth()
        let uas = [
            (LogLines.urlsession, "urlsession"), (LogLines.webview, "webview"), (LogLines.cfnetwork, "inconsistent"),
            (LogLines.curl, "other"), (LogLines.safari, "inconsistent"), ("-", "missing"),
        ]
        let statuses = ["200", "403", "401", "500", "302", "404", "200"]
        let paths = ["/api/v2/me", "/api/%6Cogin?x=1", "/feed", "/api/v2/me?page=2"]
        for i in 0..<3_000 {
            let (ua, cls) = uas[(i * 7 + i / 13) % uas.count]
            let status = statuses[(i / 3) % statuses.count]
            let path = paths[(i / 5) % paths.count]
            let addr = "10.0.\(i % 7).\(i % 37)"
            t.text +=
                LogLines.uaLog(request: "GET \(path) HTTP/1.1", status: status, ua: ua).replacingOccurrences(
                    of: "127.0.0.1", with: addr) + "\n"
            var s = t.statuses[cls] ?? StatusCounts()
            switch status.first! {
            case "2": s.s2xx += 1
            case "3": s.s3xx += 1
            case "4": s.s4xx += 1
            default: s.s5xx += 1
            }
            if status == "401" { s.s401 += 1 }
            if status == "403" { s.s403 += 1 }
            t.statuses[cls] = s
            if cls == "inconsistent" {
                let decoded = path.split(separator: "?")[0].replacingOccurrences(of: "%6C", with: "l")
                t.paths[decoded, default: PathCount()].count += 1
                if status == "401" || status == "403" { t.paths[decoded, default: PathCount()].rejected += 1 }
            }
            let bit: UInt8 = cls == "inconsistent" ? 2 : (cls == "urlsession" || cls == "webview") ? 1 : 0
            t.kinds[addr, default: 0] |= bit
        }
        return t
    }

    @Test(arguments: [1, 2, 3])
    func chunksGiveTheFiguresOfTheWholeLog(threads: Int) throws {
        let truth = Self.log()
        let dir = try TempDirectory()
        let path = try dir.write("access.log", Array(truth.text.utf8))
        let configuration = ScanConfiguration(
            format: try BuiltinFormats.named("ua_log"), rules: RuleSet.builtin(), top: 100, threads: threads,
            maxLineBytes: 4096, blockSize: 4096, chunkBytes: 16 << 10)
        let result = Scanner(configuration: configuration, progress: nil).scan([path])
        let report = ReportBuilder.build(result, configuration: configuration, generatedAt: "x")
        #expect(report.hours.count == 1)
        let hour = report.hours[0]
        for (cls, s) in truth.statuses { #expect(hour.impact?[cls] == s, "\(cls)") }
        #expect(hour.impact?["other"] == truth.statuses["other"])
        let paths = Dictionary(
            uniqueKeysWithValues: (hour.topPaths ?? []).map {
                ($0.path, PathCount(count: $0.count, rejected: $0.rejected))
            })
        #expect(paths == truth.paths)
        let clients = try #require(hour.clients)
        #expect(clients.app == Int64(truth.kinds.values.filter { $0 & 1 != 0 }.count))
        #expect(clients.alert == Int64(truth.kinds.values.filter { $0 & 2 != 0 }.count))
        #expect(clients.split == Int64(truth.kinds.values.filter { $0 == 3 }.count))
        #expect(clients.exact)
        #expect(clients.split > 0 && clients.split < clients.app)
    }
}
