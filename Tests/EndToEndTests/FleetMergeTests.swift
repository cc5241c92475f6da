import Foundation
import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

/// `merge` of reports from several hosts counts split clients fleet-wide from the reports'
/// client samples, works drift out again from their families, and refuses reports hashed with
/// different salts or showing client keys (issue 36).
@Suite struct FleetMergeTests {
    static let webview = "MyApp/5.12.1 (iPhone; iPhone15,3; iOS 17_4) AppleWebKit/605.1.15 Safari/604.1"
    static let newSDK = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) NewSDK/2.0"

    static func line(_ client: String, _ time: String, _ ua: String) -> String {
        "\(client) - - [\(time)] \"GET /api/v2/me HTTP/1.1\" 200 2 \"-\" \"\(ua)\" rt=0.000 uct=\"-\" uht=\"-\" urt=\"-\""
    }

    /// Host A: clients 10.0.0.1…50 send the app's UA at 17:xx. Host B: 10.0.0.1…5 send the
    /// inconsistent CFNetwork UA, 10.0.1.1…21 the app's. No host sees a split client.
    static func hostA() -> [String] {
        (1...50).map {
            line("10.0.0.\($0)", "29/Nov/2026:17:\(String(format: "%02d", $0 % 60)):00 +0800", Lines.urlsession)
        }
    }
    static func hostB() -> [String] {
        (1...5).map { line("10.0.0.\($0)", "29/Nov/2026:17:30:0\($0) +0800", Lines.cfnetwork) }
            + (1...21).map { line("10.0.1.\($0)", "29/Nov/2026:17:40:00 +0800", Lines.urlsession) }
    }

    static func scan(_ lines: [String], in dir: Scratch, as name: String, options: [String] = []) throws -> (
        status: Int32, path: String, stderr: String
    ) {
        let sub = try Scratch()
        try sub.write("access.log", lines.joined(separator: "\n") + "\n")
        let result = try Tool.run(["scan", "--json", "--threads", "1"] + options + ["access.log"], directory: sub.url)
        return (result.status, try dir.write(name, result.out), result.stderr)
    }

    static func clients(_ report: Report, _ hour: String) -> Report.ClientsEntry? {
        report.hours.first { $0.hour == hour }?.clients
    }

    @Test func aClientSplitAcrossTwoHostsIsCountedOnceFleetWide() throws {
        let dir = try Scratch()
        let a = try Self.scan(Self.hostA(), in: dir, as: "a.json")
        let b = try Self.scan(Self.hostB(), in: dir, as: "b.json")
        #expect(a.status == 0 && b.status == 0)
        let hour = "2026-11-29T17:00:00+08:00"
        let ra = try ReportEncoding.decode(Array(try Data(contentsOf: URL(fileURLWithPath: a.path))))
        let rb = try ReportEncoding.decode(Array(try Data(contentsOf: URL(fileURLWithPath: b.path))))
        #expect(Self.clients(ra, hour)?.split == 0)
        #expect(Self.clients(rb, hour)?.split == 0)
        #expect(ra.clientSalt == ClientSalt.standard.fingerprint)
        let merged = try Tool.run(["merge", "--json", a.path, b.path])
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(merged.stderr == "")
        let report = try ReportEncoding.decode(merged.stdout)
        let c = try #require(Self.clients(report, hour))
        #expect(c.app == 71)
        #expect(c.alert == 5)
        #expect(c.split == 5)
        #expect(c.exact)
        #expect(c.sampleRate == 1)
        #expect(c.splitError == 0)
        #expect(c.sample?.level == 0)
        // The merged report's sample is the union (71 clients: 10.0.0.1…5 are on both hosts),
        // so that a merge of it merges on.
        #expect(c.sample?.records()?.count == 71)
        #expect(report.clientSalt == ClientSalt.standard.fingerprint)
    }

    @Test func reportsOfDifferentSaltsAreRefusedAndOfOneSaltMerge() throws {
        let dir = try Scratch()
        let one = try dir.write("one.salt", "k3J9w1Qx8ZpL0sVb4TnY7uRe2HcD6mAf\n")
        let other = try dir.write("other.salt", "Zz0Yy1Xx2Ww3Vv4Uu5Tt6Ss7Rr8Qq9Pp\n")
        let a = try Self.scan(Self.hostA(), in: dir, as: "a.json", options: ["--client-salt-file", one])
        let b = try Self.scan(Self.hostB(), in: dir, as: "b.json", options: ["--client-salt-file", other])
        let b1 = try Self.scan(Self.hostB(), in: dir, as: "b1.json", options: ["--client-salt-file", one])
        #expect(a.status == 0 && b.status == 0 && b1.status == 0)
        let ra = try ReportEncoding.decode(Array(try Data(contentsOf: URL(fileURLWithPath: a.path))))
        let rb = try ReportEncoding.decode(Array(try Data(contentsOf: URL(fileURLWithPath: b.path))))
        #expect(ra.clientSalt == ClientSalt(bytes: Array("k3J9w1Qx8ZpL0sVb4TnY7uRe2HcD6mAf".utf8)).fingerprint)
        #expect(ra.clientSalt != rb.clientSalt)
        #expect(ra.clientSalt != ClientSalt.standard.fingerprint)
        let refused = try Tool.run(["merge", "--json", a.path, b.path])
        #expect(refused.status == 2)
        #expect(refused.stdout.isEmpty)
        #expect(
            refused.stderr
                == "uaaudit: \(a.path) hashed client keys with salt \(ra.clientSalt!) but \(b.path) with "
                + "\(rb.clientSalt!): their clients cannot be matched; give every host the same --client-salt-file "
                + "(config client_salt_file) and make the reports again (nothing was written)\n")
        // The salt itself is in no report and no message.
        for text in [refused.stderr, try String(contentsOfFile: a.path, encoding: .utf8)] {
            #expect(!text.contains("k3J9w1Qx8ZpL0sVb4TnY7uRe2HcD6mAf"))
        }
        let merged = try Tool.run(["merge", "--json", a.path, b1.path])
        #expect(merged.status == 0, "\(merged.stderr)")
        let c = try #require(Self.clients(try ReportEncoding.decode(merged.stdout), "2026-11-29T17:00:00+08:00"))
        #expect([c.app, c.alert, c.split] == [71, 5, 5])
        // Split examples are hashed under the salt, not as with the default one.
        let shown = try Self.scan(
            Self.hostA() + Self.hostB(), in: dir, as: "both.json", options: ["--client-salt-file", one])
        let both = try ReportEncoding.decode(Array(try Data(contentsOf: URL(fileURLWithPath: shown.path))))
        let examples = try #require(Self.clients(both, "2026-11-29T17:00:00+08:00")).examples
        let salt = ClientSalt(bytes: Array("k3J9w1Qx8ZpL0sVb4TnY7uRe2HcD6mAf".utf8))
        #expect(examples == ["10.0.0.1", "10.0.0.2", "10.0.0.3"].map(salt.display))
        #expect(examples[0] != ClientSalt.standard.display("10.0.0.1"))
    }

    @Test func aReportShowingClientKeysIsNotMergedWithAnother() throws {
        let dir = try Scratch()
        let a = try Self.scan(Self.hostA(), in: dir, as: "a.json", options: ["--show-client-keys"])
        let b = try Self.scan(Self.hostB(), in: dir, as: "b.json")
        // Merged alone it stays a report that shows keys, and is refused with another as well.
        let alone = try Tool.run(["merge", "--out", dir.path("alone.json"), a.path])
        #expect(alone.status == 0)
        let again = try Tool.run(["merge", "--json", b.path, dir.path("alone.json")])
        #expect(again.status == 2)
        #expect(again.stderr.contains("alone.json shows client keys in full"))
        let refused = try Tool.run(["merge", "--json", b.path, a.path])
        #expect(refused.status == 2)
        #expect(
            refused.stderr
                == "uaaudit: \(a.path) shows client keys in full (--show-client-keys): merge combines only reports "
                + "whose keys are hashed; make it again without --show-client-keys (nothing was written)\n")
    }

    @Test func aSaltFileTooShortOrMissingIsExitTwo() throws {
        let dir = try Scratch()
        let short = try dir.write("short.salt", "abc\n")
        let log = try dir.write("access.log", Self.hostA().joined(separator: "\n") + "\n")
        let result = try Tool.run(["scan", "--json", "--client-salt-file", short, log])
        #expect(result.status == 2)
        #expect(
            result.stderr
                == "uaaudit: the client salt file \(short): holds 3 bytes: a client salt needs at least 16 "
                + "(make one with: head -c 32 /dev/urandom | base64 > \(short))\n")
        // A salt every user may read is said (the scan goes on); one only its owner reads is not.
        let salt = try dir.write("good.salt", "k3J9w1Qx8ZpL0sVb4TnY7uRe2HcD6mAf\n")
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: salt)
        let open = try Tool.run(["scan", "--json", "--client-salt-file", salt, log])
        #expect(open.status == 0)
        #expect(
            open.stderr
                == "uaaudit: \(salt) holds the client salt and every user of this machine may read it (mode 0644): "
                + "chmod 640 \(salt) (group adm lets the uaaudit account read it), or 600\n")
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: salt)
        #expect(try Tool.run(["scan", "--json", "--client-salt-file", salt, log]).stderr == "")
        let missing = try Tool.run(["scan", "--json", "--client-salt-file", dir.path("none.salt"), log])
        #expect(missing.status == 2)
        #expect(missing.stderr.hasPrefix("uaaudit: the client salt file \(dir.path("none.salt")): "))
    }

    /// Four hours; clients 10.1.x.y send the app's UA throughout and some the inconsistent one
    /// in hour 19 and 20; a new family (NewSDK) appears at 20:00, over 5% of that hour.
    static func day() -> [String] {
        var lines: [String] = []
        for (h, hour) in ["17", "18", "19", "20"].enumerated() {
            for i in 0..<300 {
                let client = "10.1.\(i % 7).\(i % 40)"
                let time =
                    "29/Nov/2026:\(hour):\(String(format: "%02d", i % 60)):\(String(format: "%02d", h * 7 % 60)) +0800"
                var ua = i % 2 == 0 ? Lines.urlsession : webview
                if h >= 2, i % 37 == 0 { ua = Lines.cfnetwork }
                if h == 3, i % 10 == 1 { ua = newSDK }
                lines.append(line(client, time, ua))
            }
        }
        return lines
    }

    @Test func theMergeOfTwoHalvesHasTheWholeLogsSplitClientsAndDrift() throws {
        let dir = try Scratch()
        let lines = Self.day()
        let options = ["--alert-new-family", "5%"]
        // Halves cut inside hour 19, so that its clients come from both.
        let cut = 700
        let whole = try Self.scan(lines, in: dir, as: "whole.json", options: options)
        let a = try Self.scan(Array(lines[..<cut]), in: dir, as: "a.json", options: options)
        let b = try Self.scan(Array(lines[cut...]), in: dir, as: "b.json", options: options)
        let merged = try Tool.run(["merge", "--json", a.path, b.path])
        #expect(merged.status == 0, "\(merged.stderr)")
        var expected = try ReportEncoding.decode(Array(try Data(contentsOf: URL(fileURLWithPath: whole.path))))
        var got = try ReportEncoding.decode(merged.stdout)
        // The drift alert and the split clients the comparison is about.
        #expect(got.totals.driftAlertHours == ["2026-11-29T20:00:00+08:00"])
        // 280 clients an hour (i and i + 280 share an address): the CFNetwork requests of i = 0
        // and 296 come from clients that also sent the app's UA (i = 280 and 16); the others'
        // clients sent nothing else. Hour 19 is cut between the halves: i = 0 in one, 280 in the other.
        #expect(got.hours.map { $0.clients?.split } == [0, 0, 2, 2])
        #expect(got.hours[3].drift?.newFamilies.map(\.count) == [30])
        expected.generatedAt = ""
        got.generatedAt = ""
        (expected.sources, got.sources) = ([], [])
        (expected.reportID, got.reportID, got.mergedFrom) = (nil, nil, nil)
        // Examples are keys a report saw split; a client split only across the halves is in neither.
        #expect(got.hours[2].clients?.examples == [])
        #expect(expected.hours[2].clients?.examples.count == 2)
        #expect(got.hours[3].clients?.examples == expected.hours[3].clients?.examples)
        expected.hours[2].clients?.examples = []
        let (e, g) = (try ReportEncoding.encode(expected), try ReportEncoding.encode(got))
        let (el, gl) = (
            String(decoding: e, as: UTF8.self).split(separator: "\n"),
            String(decoding: g, as: UTF8.self).split(separator: "\n")
        )
        let first = zip(el, gl).enumerated().first { $0.element.0 != $0.element.1 }
        #expect(first == nil, "line \(first?.offset ?? 0): \(first?.element.0 ?? "") vs \(first?.element.1 ?? "")")
        #expect(el.count == gl.count)
    }

    /// Forged reports: samples without the salt they were keyed with, and families whose class
    /// is not the rules' or whose requests pass the hour's, are refused by name.
    @Test func forgedSamplesAndFamiliesAreRefused() throws {
        let dir = try Scratch()
        let a = try Self.scan(Self.hostA(), in: dir, as: "a.json")
        let b = try Self.scan(Self.day(), in: dir, as: "b.json", options: ["--alert-new-family", "5%"])
        let report = try ReportEncoding.decode(Array(try Data(contentsOf: URL(fileURLWithPath: b.path))))
        func write(_ name: String, _ edit: (inout Report) -> Void) throws -> String {
            var copy = report
            edit(&copy)
            copy.reportID = name
            return try dir.write(name, String(decoding: try ReportEncoding.encode(copy), as: UTF8.self))
        }
        let unsalted = try write("unsalted.json") { $0.clientSalt = nil }
        let merged = try Tool.run(["merge", "--json", a.path, unsalted])
        #expect(merged.status == 2)
        #expect(
            merged.stderr
                == "uaaudit: \(unsalted): is not a valid report: it has client samples but no client_salt\n")
        let hour = report.hours[3].hour
        let evil = try write("evil.json") {
            $0.hours[3].drift?.families?[0].classes = ["\u{1B}[41mEVIL": 1]
        }
        let huge = try write("huge.json") {
            $0.hours[3].drift?.families?[0].classes = ["urlsession": 9_007_199_254_740_992]
        }
        for (path, why) in [
            (evil, "hour \(hour) has a UA family whose class ([\"\\u001b[41mEVIL\"]) is not a class of its rules"),
            (huge, "hour \(hour)'s UA families hold more urlsession requests than the hour"),
        ] {
            let result = try Tool.run(["merge", "--json", a.path, path])
            #expect(result.status == 3)
            #expect(result.stderr.hasPrefix("uaaudit: \(path): is not a valid report: \(why)\n"), "\(result.stderr)")
        }
    }
}
