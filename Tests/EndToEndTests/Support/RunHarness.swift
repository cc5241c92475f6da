import Foundation
import Testing

/// A log directory and a state for `uaaudit run` scenarios: write lines, rotate, run, read the report.
final class RunHarness {
    let dir: Scratch
    /// Where the state and its lock live, and where the report does (default: beside the log).
    let storage: String
    let reportStorage: String
    var log: String { dir.path("access.log") }
    var state: String { storage + "/state.json" }
    var report: String { reportStorage + "/report.json" }
    /// Requests written so far, per class.
    var written: [String: Int] = [:]
    private var sequence = 0

    init(storage: String? = nil, reportStorage: String? = nil) throws {
        dir = try Scratch()
        self.storage = storage ?? dir.url.path
        self.reportStorage = reportStorage ?? storage ?? dir.url.path
    }

    /// One ua_log line at `time` ("29/Nov/2026:10:15:00 +0000") of the given class.
    func line(_ time: String, _ cls: String) -> String {
        sequence += 1
        let ua: String
        switch cls {
        case "urlsession": ua = Lines.urlsession
        case "inconsistent": ua = Lines.cfnetwork
        case "other": ua = "curl/8.\(sequence)"
        default: ua = "-"
        }
        written[cls, default: 0] += 1
        return
            "10.0.0.\(sequence % 250) - - [\(time)] \"GET /api/v2/me?n=\(sequence) HTTP/1.1\" 200 2 \"-\" \"\(ua)\" rt=0.000 uct=\"-\" uht=\"-\" urt=\"-\""
    }

    /// Appends `count` lines in minute `minute` of hour `hour` (0-23 on 29 Nov 2026, UTC) to
    /// `path` (default: the log). They stay in that minute (the seconds cycle), so that a run
    /// whose clock is a few minutes later finds none of them in the future.
    func append(_ count: Int, hour: Int, minute: Int = 10, cls: String = "urlsession", to path: String? = nil) throws {
        var text = ""
        for i in 0..<count {
            let m = String(format: "%02d", minute)
            let s = String(format: "%02d", i % 60)
            text += line("29/Nov/2026:\(String(format: "%02d", hour)):\(m):\(s) +0000", cls) + "\n"
        }
        try appendRaw(text, to: path ?? log)
    }

    func appendRaw(_ text: String, to path: String) throws {
        if !FileManager.default.fileExists(atPath: path) {
            _ = FileManager.default.createFile(atPath: path, contents: nil)
        }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(text.utf8))
        try handle.close()
    }

    /// `cp -p log copy`: a copy of the log in the harness directory, with the log's time.
    func copyPreservingTime(to name: String) throws {
        let copy = dir.path(name)
        try FileManager.default.copyItem(atPath: log, toPath: copy)
        let modified = try FileManager.default.attributesOfItem(atPath: log)[.modificationDate]
        try FileManager.default.setAttributes([.modificationDate: modified as Any], ofItemAtPath: copy)
    }

    func move(_ from: String, _ to: String) throws {
        try FileManager.default.moveItem(atPath: dir.path(from), toPath: dir.path(to))
    }

    func gzip(_ name: String) throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/gzip")
        p.arguments = [dir.path(name)]
        try p.run()
        p.waitUntilExit()
    }

    /// Runs `uaaudit run` at `now` ("2026-11-29T11:10:00Z").
    @discardableResult
    func run(now: String, extra: [String] = [], environment: [String: String] = [:], launcher: [String] = [])
        throws -> Tool.Result
    {
        try Tool.run(
            ["run", "-q", "--state", state, "--out", report, "--now", now, "--host", "test-host"] + extra + [log],
            environment: environment, launcher: launcher)
    }

    func reportJSON() throws -> [String: Any] {
        try unwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any])
    }

    /// Requests per class over all hours of the report.
    func reportedClasses() throws -> [String: Int] {
        let totals = try unwrap(try reportJSON()["totals"] as? [String: Any])
        let classes = try unwrap(totals["classes"] as? [String: Int])
        return classes.filter { $0.value > 0 }
    }

    /// (hour, requests, closed, late) per hour of the report.
    func hours() throws -> [(String, Int, Bool, Int)] {
        let hours = try unwrap(try reportJSON()["hours"] as? [[String: Any]])
        return try hours.map {
            (
                try unwrap($0["hour"] as? String), try unwrap($0["requests"] as? Int),
                try unwrap($0["closed"] as? Bool),
                try unwrap($0["late"] as? Int)
            )
        }
    }

    /// The state's alert ledger: hour → (id, status), from `alerts.hours`.
    func ledger() throws -> [String: (id: String, status: String)] {
        let state = try unwrap(
            JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: self.state))) as? [String: Any])
        let hours = (state["alerts"] as? [String: Any])?["hours"] as? [String: [String: Any]] ?? [:]
        return try hours.mapValues { (try unwrap($0["id"] as? String), try unwrap($0["status"] as? String)) }
    }

    /// The ledger's hours with `status`, in order.
    func ledgerHours(_ status: String) throws -> [String] {
        try ledger().filter { $0.value.status == status }.keys.sorted()
    }

    /// Runs Debian's real `logrotate -f conf` on the clock stopped at `time` ("2026-12-07 10:00:00",
    /// UTC) through `faketime -f`, with its status file beside the log: the dateext names carry
    /// that date.
    func logrotate(_ logrotate: String, conf: String, on time: String, faketime: String) throws {
        let result = try ExternalTool.run(
            faketime, ["-f", time, logrotate, "-f", "-s", dir.path("logrotate.status"), conf],
            environment: ["TZ": "UTC", "PATH": "/usr/sbin:/usr/bin:/sbin:/bin"])
        #expect(result.status == 0, "\(result.stderr)")
    }

    func gaps() throws -> [[String: Any]] {
        try reportJSON()["gaps"] as? [[String: Any]] ?? []
    }

    /// Takes the live logs' `recent_lines` out of the state: it is then as a `run` from before
    /// issue 29 left it (the only difference). Returns how many there were.
    @discardableResult
    func dropRecentLines() throws -> Int {
        var state = try unwrap(
            JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: self.state))) as? [String: Any])
        var logs = try unwrap(state["logs"] as? [String: [String: Any]])
        var dropped = 0
        for key in logs.keys {
            guard var current = logs[key]?["current"] as? [String: Any], current["recent_lines"] != nil else {
                continue
            }
            current["recent_lines"] = nil
            logs[key]?["current"] = current
            dropped += 1
        }
        state["logs"] = logs
        try JSONSerialization.data(withJSONObject: state, options: [.prettyPrinted, .sortedKeys])
            .write(to: URL(fileURLWithPath: self.state))
        return dropped
    }
}

func unwrap<T>(_ value: T?) throws -> T {
    guard let value else { throw HarnessError.missing }
    return value
}

enum HarnessError: Error { case missing }
