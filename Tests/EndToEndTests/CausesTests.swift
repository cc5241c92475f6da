import Foundation
import Testing
import WebhookReceiver

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

/// Issue 37: for hours the project has not seen, `explain` names each inconsistent family's
/// stack, fix, the app release that introduced it (not the consistent one) and the iOS
/// versions, in text and JSON, and the alert message carries one line of it.
///
/// The generated log: 140 clients an hour of MyShop, 60 on 3.3.0 and 80 on 3.2.1. Release
/// 3.3.0 also sends URLSession's default (Darwin 23.4 and 23.5: iOS 17.4 and 17.5), and its
/// first 30 clients a WKWebView without the app's token (iOS 18.1); every seventh client of
/// either release sends the Share extension's default (Darwin 24.1: iOS 18.1).
@Suite struct CausesTests {
    static let cfnetwork = "MyShop/# CFNetwork/#.#.# Darwin/#.#.#"
    static let webview =
        "Mozilla/#.# (iPhone; CPU iPhone OS #_# like Mac OS X) AppleWebKit/#.#.# (KHTML, like Gecko) Mobile/#E#"
    static let share = "MyShop%#Share/# CFNetwork/#.#.# Darwin/#.#.#"

    static func line(_ client: Int, _ hour: Int, _ minute: Int, _ ua: String) -> String {
        let time = String(format: "04/Mar/2025:%02d:%02d:%02d +0000", hour, minute, client % 60)
        return
            "10.1.\(client / 200).\(client % 200 + 1) - - [\(time)] \"GET /api/feed HTTP/1.1\" 200 12 \"-\" \"\(ua)\" "
            + "rt=0.010 uct=\"0.001\" uht=\"0.009\" urt=\"0.010\""
    }

    static func log(hours: [Int] = [10, 11], clients: Range<Int> = 0..<140) -> String {
        var lines: [String] = []
        for hour in hours {
            for c in clients {
                let version = c < 60 ? "3.3.0" : "3.2.1"
                for k in 0..<5 {
                    lines.append(line(c, hour, k * 10, "MyShop/\(version) (iPhone; iOS 17.4; Scale/3.00)"))
                }
                if c < 60 {
                    let darwin = c % 2 == 0 ? "23.4.0" : "23.5.0"
                    for k in 0..<2 {
                        lines.append(line(c, hour, 31 + k, "MyShop/2310 CFNetwork/1496.0.7 Darwin/\(darwin)"))
                    }
                }
                if c < 30 {
                    lines.append(
                        line(
                            c, hour, 41,
                            "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 "
                                + "(KHTML, like Gecko) Mobile/15E148"))
                }
                if c % 7 == 0 {
                    lines.append(line(c, hour, 51, "MyShop%20Share/2310 CFNetwork/1494.0.7 Darwin/24.1.0"))
                }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func setUp(_ log: String = log()) throws -> Scratch {
        let dir = try Scratch()
        _ = try dir.write("access.log", log)
        let rules = try Tool.run(["rules", "init", "--app", "MyShop", "--out", "rules.json"], directory: dir.url)
        #expect(rules.status == 0, "\(rules.stderr)")
        return dir
    }

    static func causes(_ json: [UInt8]) throws -> [Report.CauseEntry] {
        struct Page: Decodable { var hour: Report.HourEntry }
        return try #require(try JSONDecoder().decode(Page.self, from: Data(json)).hour.causes)
    }

    static let urlsessionFix =
        "A URLSession or NSURLConnection sent CFNetwork's default UA: set "
        + "URLSessionConfiguration.httpAdditionalHeaders[\"User-Agent\"] on the configuration every session is made "
        + "from (or per request)."

    @Test func explainJSONNamesStackFixReleaseAndIOSPerFamily() throws {
        let dir = try Self.setUp()
        let result = try Tool.run(
            ["explain", "2025-03-04T11", "--json", "--rules", "rules.json", "access.log"], directory: dir.url)
        #expect(result.status == 0, "\(result.stderr)")
        let causes = try Self.causes(result.stdout)
        #expect(causes.map(\.family) == [Self.cfnetwork, Self.webview, Self.share])
        #expect(causes.map(\.requests) == [120, 30, 20])
        #expect(causes.map(\.stack) == ["urlsession_default", "wkwebview_without_token", "urlsession_default"])
        #expect(causes.map(\.bundle) == ["MyShop", nil, "MyShop Share"])
        #expect(causes.map(\.bundleIsExtension) == [nil, nil, true])
        #expect(causes.map(\.ios) == [["17.4", "17.5"], ["18.1"], ["18.1"]])
        #expect(causes.map(\.iosFromDarwinOnly) == [true, nil, true])
        #expect(causes.map(\.firstSeen) == Array(repeating: "2025-03-04T10:00:00+00:00", count: 3))
        #expect(causes[0].fix == Self.urlsessionFix)
        // The release that introduced it, against the consistent one.
        let release = try #require(causes[0].release)
        #expect(release.version == "3.3.0")
        #expect(release.splitClients == 60)
        #expect(release.clientsOnVersion == 60)
        #expect(release.familySplitClients == 60)
        #expect(release.confidence == "high")
        #expect(release.approximate == false)
        #expect(release.consistent?.version == "3.2.1")
        #expect(release.consistent?.splitClients == 0)
        #expect(release.consistent?.clientsOnVersion == 80)
        #expect(causes[1].release?.version == "3.3.0")
        #expect(causes[1].release?.splitClients == 30)
        #expect(causes[1].release?.consistent?.version == "3.2.1")
        // Both releases send the extension's default as often as they have clients: none is named.
        #expect(causes[2].release == nil)
        #expect(
            causes[2].releaseNote
                == "no release stands out among the split clients (a shared client key, or every release)")
    }

    @Test func explainTextHasAWhySectionBeforeTheTopUAs() throws {
        let dir = try Self.setUp()
        let result = try Tool.run(
            ["explain", "2025-03-04T10", "--rules", "rules.json", "access.log"], directory: dir.url)
        #expect(result.status == 0, "\(result.stderr)")
        let page = result.out
        let why = try #require(page.range(of: "Why: which code sends the inconsistent UAs\n"))
        let top = try #require(page.range(of: "Top inconsistent UAs"))
        #expect(why.upperBound < top.lowerBound)
        #expect(
            page[why.upperBound..<top.lowerBound].hasPrefix(
                """
                     120 MyShop/# CFNetwork/#.#.# Darwin/#.#.#
                           stack: urlsession_default (bundle MyShop)
                           release: from 3.3.0 (60 of 60 split clients; 0 of 80 clients on
                           3.2.1, high confidence)
                           iOS 17.4, iOS 17.5 (from Darwin alone: could be macOS); first seen
                           2025-03-04 10:00+00:00
                           fix: A URLSession or NSURLConnection sent CFNetwork's default UA: set

                """))
        #expect(page.contains("           stack: urlsession_default (extension MyShop Share)\n"))
        #expect(page.split(separator: "\n").allSatisfy { $0.count <= 80 })
    }

    @Test func withoutAClientKeyReleasesCannotBeTold() throws {
        let dir = try Self.setUp()
        let result = try Tool.run(
            ["explain", "2025-03-04T10", "--json", "--client-key", "none", "--rules", "rules.json", "access.log"],
            directory: dir.url)
        #expect(result.status == 0, "\(result.stderr)")
        let causes = try Self.causes(result.stdout)
        #expect(causes.map(\.stack) == ["urlsession_default", "wkwebview_without_token", "urlsession_default"])
        #expect(causes.allSatisfy { $0.release == nil })
        #expect(causes[0].releaseNote == "without a client key (--client-key) releases cannot be told")
    }

    /// The same 3.3.0 traffic, but every app client sits behind one of 20 carrier-NAT addresses
    /// that mix both releases: no release may be named.
    @Test func clientsBehindSharedAddressesDoNotMakeAReleaseLookGuilty() throws {
        let nat =
            Self.log().split(separator: "\n").map { line -> String in
                // 10.1.0.N → 10.9.0.(N % 20): each address carries clients of both releases.
                guard line.hasPrefix("10.1.0."), let space = line.firstIndex(of: " "),
                    let n = Int(line[line.index(line.startIndex, offsetBy: 7)..<space])
                else { return String(line) }
                return "10.9.0.\(n % 20)" + line[space...]
            }.joined(separator: "\n") + "\n"
        let dir = try Self.setUp(nat)
        let result = try Tool.run(
            ["explain", "2025-03-04T10", "--json", "--rules", "rules.json", "access.log"], directory: dir.url)
        #expect(result.status == 0, "\(result.stderr)")
        let causes = try Self.causes(result.stdout)
        #expect(causes.first?.family == Self.cfnetwork)
        #expect(causes.allSatisfy { $0.release == nil })
    }

    @Test func theAlertMessageCarriesTheCauseLineWithinWeComsLimit() throws {
        let receiver = try WebhookReceiver(routes: ["/wecom": [.json(#"{"errcode":0,"errmsg":"ok"}"#)]])
        let dir = try Self.setUp(Self.log(hours: [10]))
        let result = try Tool.run(
            [
                "scan", "--rules", "rules.json", "--host", "web-1", "--webhook", "\(receiver.baseURL)/wecom?key=K",
                "--webhook-kind", "wecom", "access.log",
            ], directory: dir.url)
        #expect(result.status == 0, "\(result.stderr)")
        let requests = try receiver.requests()
        #expect(requests.count == 1)
        let body = try #require(requests.first)
        #expect(body.body.count <= 4096)
        #expect(
            body.text.contains(
                "cause: `MyShop/# CFNetwork/#.#.# Darwin/#.#.#` (120) — urlsession_default (bundle MyShop), "
                    + "from 3.3.0 (60 of 60 split clients; 0 of 80 clients on 3.2.1, high confidence), "
                    + "iOS 17.4, iOS 17.5 (from Darwin alone: could be macOS); fix: A URLSession or NSURLConnection"))
    }

    /// Two hosts' reports: requests and iOS versions add up per family, the release is judged
    /// again from the union of their release samples (a client on both hosts is one), and
    /// first_seen is the earliest hour of any report.
    @Test func mergeAddsCausesAndJudgesTheReleaseAgain() throws {
        let a = try Self.setUp(Self.log(hours: [10, 11], clients: 0..<70))
        let b = try Self.setUp(Self.log(hours: [11], clients: 70..<140))
        for dir in [a, b] {
            let r = try Tool.run(
                ["scan", "--json", "--out", "report.json", "--rules", "rules.json", "access.log"], directory: dir.url)
            #expect(r.status == 0, "\(r.stderr)")
        }
        let merged = try Tool.run(["merge", "--json", a.path("report.json"), b.path("report.json")])
        #expect(merged.status == 0, "\(merged.stderr)")
        let report = try ReportEncoding.decode(merged.stdout)
        let hour = try #require(report.hours.first { $0.hour == "2025-03-04T11:00:00+00:00" })
        let causes = try #require(hour.causes)
        #expect(causes.map(\.family) == [Self.cfnetwork, Self.webview, Self.share])
        #expect(causes.map(\.requests) == [120, 30, 20])
        #expect(causes.map(\.firstSeen) == Array(repeating: "2025-03-04T10:00:00+00:00", count: 3))
        #expect(causes[0].release?.version == "3.3.0")
        #expect(causes[0].release?.splitClients == 60)
        #expect(causes[0].release?.consistent?.version == "3.2.1")
        #expect(causes[0].release?.consistent?.splitClients == 0)
        #expect(causes[0].release?.consistent?.clientsOnVersion == 80)
        #expect(causes[0].release?.approximate == false)
    }
}
