import Foundation
import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

@Suite struct ReportMergeTests {
    static let rules = RuleSet.builtin().summary

    /// An hour entry as a scan would write it, from its class counts and top list.
    static func hour(
        _ hour: String, _ classes: [String: Int64], top: [(String, Int64)] = [], approximate: Bool = false,
        closed: Bool? = nil, late: Int64? = nil
    ) -> Report.HourEntry {
        let names = rules.order + ["other", "missing"]
        let all = Dictionary(uniqueKeysWithValues: names.map { ($0, classes[$0] ?? 0) })
        let requests = all.values.reduce(0, +)
        return Report.HourEntry(
            hour: hour, requests: requests, classes: all, shares: all.mapValues { ReportBuilder.share($0, requests) },
            share: ReportBuilder.share(all["inconsistent"] ?? 0, requests), alert: false, errors: 0, outOfScope: 0,
            top: top.map { Report.TopEntry(ua: $0.0, count: $0.1) }, topApproximate: approximate, closed: closed,
            late: late)
    }

    static func report(
        _ hours: [Report.HourEntry], threshold: Threshold = .standard, minRequests: Int64 = 100,
        rules: RulesSummary = rules
    ) -> Report {
        Report(
            generatedAt: "2026-11-29T10:00:00Z", sources: [Report.SourceEntry(path: "a.log", lines: 0, bytes: 0)],
            format: Report.FormatEntry(name: "ua_log", string: BuiltinFormats.uaLog, escape: .default), rules: rules,
            threshold: threshold, minRequests: minRequests,
            totals: Report.Totals(
                lines: 0, requests: 0, malformed: 0, outOfScope: 0, errors: 0, classes: [:], share: 0, alertHours: []),
            hours: hours, malformedSamples: [])
    }

    static func merge(_ reports: [Report], options: ReportMerge.Options = .init(generatedAt: "now")) throws
        -> Report
    {
        let inputs = reports.enumerated().map { ReportMerge.Input(path: "r\($0).json", report: $1) }
        return try ReportMerge.merge(inputs, options: options).report
    }

    @Test func countsAddAndTheBreachIsDecidedInIntegers() throws {
        // 1 in 1000 is exactly the threshold, not above it; 3 in 2000 is above.
        let a = Self.report([Self.hour("2026-11-29T17:00:00+08:00", ["urlsession": 999, "inconsistent": 1])])
        let b = Self.report([Self.hour("2026-11-29T17:00:00+08:00", ["urlsession": 999, "inconsistent": 1])])
        let even = try Self.merge([a, b])
        #expect(even.hours.count == 1)
        #expect(even.hours[0].requests == 2000)
        #expect(even.hours[0].share == 0.001)
        #expect(even.hours[0].alert == false)
        let c = Self.report([Self.hour("2026-11-29T17:00:00+08:00", ["urlsession": 998, "inconsistent": 2])])
        let over = try Self.merge([a, c])
        #expect(
            over.hours[0].classes == ["webview": 0, "urlsession": 1997, "inconsistent": 3, "other": 0, "missing": 0])
        #expect(over.hours[0].share == 3.0 / 2000.0)
        #expect(over.hours[0].shares["urlsession"] == 1997.0 / 2000.0)
        #expect(over.hours[0].alert)
        #expect(over.totals.alertHours == ["2026-11-29T17:00:00+08:00"])
        #expect(over.totals.requests == 2000)
        #expect(over.totals.lines == 2000)
        #expect(over.totals.share == 3.0 / 2000.0)
    }

    @Test func quietHoursCanAlertOnceMerged() throws {
        // 60 requests per host is under the minimum of 100; 120 across the fleet is not.
        let host = Self.report([Self.hour("2026-11-29T17:00:00+08:00", ["urlsession": 59, "inconsistent": 1])])
        #expect(try Self.merge([host]).hours[0].alert == false)
        #expect(try Self.merge([host, host]).hours[0].alert == true)
    }

    @Test func hoursAreKeyedByLocalHourAndOffsetAndOrderedByInstant() throws {
        let a = Self.report([
            Self.hour("2026-11-29T17:00:00+08:00", ["urlsession": 1]),
            Self.hour("2026-11-29T18:00:00+08:00", ["urlsession": 2]),
        ])
        let b = Self.report([
            Self.hour("2026-11-29T09:00:00+00:00", ["urlsession": 4]),
            Self.hour("2026-11-29T14:00:00+05:30", ["urlsession": 8]),
            Self.hour("2026-11-29T17:00:00+08:00", ["urlsession": 16]),
            Self.hour("2026-11-29T08:00:00Z", ["urlsession": 32]),
        ])
        let merged = try Self.merge([a, b])
        #expect(
            merged.hours.map(\.hour) == [
                "2026-11-29T08:00:00+00:00", "2026-11-29T14:00:00+05:30", "2026-11-29T09:00:00+00:00",
                "2026-11-29T17:00:00+08:00", "2026-11-29T18:00:00+08:00",
            ])
        #expect(merged.hours.map(\.requests) == [32, 8, 4, 17, 2])
        let bad = Self.report([Self.hour("2026-11-29T14:30:00+05:30", ["urlsession": 1])])
        #expect(throws: MergeError.badHour(path: "r1.json", hour: "2026-11-29T14:30:00+05:30")) {
            try Self.merge([a, bad])
        }
    }

    @Test func topListsAddUpAndACutListMakesTheHourApproximate() throws {
        let h = "2026-11-29T17:00:00+08:00"
        // a listed 5 of its 9 inconsistent requests (its list was cut); b listed all of its 5.
        let a = Self.report([Self.hour(h, ["inconsistent": 9], top: [("x", 5)])])
        let b = Self.report([Self.hour(h, ["inconsistent": 5], top: [("y", 3), ("x", 2)])])
        let merged = try Self.merge([a, b])
        #expect(merged.hours[0].top.map(\.ua) == ["x", "y"])
        #expect(merged.hours[0].top.map(\.count) == [7, 3])
        #expect(merged.hours[0].topApproximate)
        // Alone, a cut list is still the exact top of its hour; complete lists merge exactly.
        #expect(try Self.merge([a]).hours[0].topApproximate == false)
        #expect(try Self.merge([b, b]).hours[0].topApproximate == false)
        #expect(try Self.merge([b, b]).hours[0].top.map(\.count) == [6, 4])
        // An input's approximate top stays approximate; --top cuts the merged list.
        let c = Self.report([Self.hour(h, ["inconsistent": 5], top: [("y", 3), ("x", 2)], approximate: true)])
        #expect(try Self.merge([c]).hours[0].topApproximate)
        let one = try Self.merge([b, b], options: .init(top: 1, generatedAt: "now"))
        #expect(one.hours[0].top.map(\.ua) == ["y"])
        // Ties go to the UA that sorts first, as the scan orders them.
        let tie = Self.report([Self.hour(h, ["inconsistent": 2], top: [("b", 1), ("a", 1)])])
        #expect(try Self.merge([tie]).hours[0].top.map(\.ua) == ["a", "b"])
    }

    @Test func runReportsCloseAnHourWhenAllDidAndAddTheirLateLines() throws {
        let h = "2026-11-29T17:00:00+08:00"
        let a = Self.report([Self.hour(h, ["urlsession": 1], closed: true, late: 2)])
        let b = Self.report([Self.hour(h, ["urlsession": 1], closed: false, late: 0)])
        let scan = Self.report([Self.hour(h, ["urlsession": 1])])
        #expect(try Self.merge([a, a]).hours[0].closed == true)
        #expect(try Self.merge([a, a]).hours[0].late == 4)
        #expect(try Self.merge([a, b]).hours[0].closed == false)
        #expect(try Self.merge([a, scan]).hours[0].closed == true)
        #expect(try Self.merge([scan]).hours[0].closed == nil)
        #expect(try Self.merge([scan]).hours[0].late == nil)
    }

    static let ruleDifferences: [(RulesSummary, String)] = {
        var order = rules
        order.order = ["urlsession", "webview", "inconsistent"]
        var alert = rules
        alert.alertClass = "other"
        var scope = rules
        scope.scope = "^/api/"
        var patterns = rules
        patterns.patterns["urlsession"] = ["MyApp/"]
        return [
            (order, "classes webview, urlsession, inconsistent vs urlsession, webview, inconsistent"),
            (alert, "alert class inconsistent vs other"),
            (scope, "scope none vs ^/api/"),
            (patterns, "patterns of urlsession"),
        ]
    }()

    @Test(arguments: ruleDifferences)
    func differentRulesAreRefusedWithWhatDiffers(other: RulesSummary, difference: String) throws {
        let a = Self.report([])
        let b = Self.report([], rules: other)
        #expect(throws: MergeError.differentRules(first: "r0.json", other: "r1.json", difference: difference)) {
            try Self.merge([a, b, a])
        }
        #expect(
            MergeError.differentRules(first: "a.json", other: "b.json", difference: difference).description
                == "a.json and b.json were made with different rules (\(difference)); only reports of the same rules can be merged"
        )
    }

    @Test func thresholdsAndMinimumsMustAgreeUnlessChosen() throws {
        let h = [Self.hour("2026-11-29T17:00:00+08:00", ["urlsession": 195, "inconsistent": 5])]
        let a = Self.report(h)
        let b = Self.report(h, threshold: Threshold(parsing: "0.02")!, minRequests: 50)
        #expect(
            throws: MergeError.differentPolicy(
                setting: "threshold", first: "r0.json", firstValue: "0.001", other: "r1.json", otherValue: "0.02")
        ) { try Self.merge([a, b]) }
        #expect(
            MergeError.differentPolicy(
                setting: "min_requests", first: "a", firstValue: "100", other: "b", otherValue: "50"
            ).description == "a has min_requests 100 but b has 50; give --min-requests to choose the merged report's")
        let chosen = ReportMerge.Options(threshold: Threshold(parsing: "2%"), minRequests: 500, generatedAt: "now")
        let merged = try Self.merge([a, b], options: chosen)
        #expect(merged.threshold == Threshold(parsing: "0.02")!)
        #expect(merged.minRequests == 500)
        #expect(merged.hours[0].alert == false)  // 10 of 400 is over 2%, but 400 < 500
        let lower = ReportMerge.Options(threshold: Threshold(parsing: "2%"), minRequests: 400, generatedAt: "now")
        #expect(try Self.merge([a, b], options: lower).hours[0].alert)
    }

    /// A report's threshold is read back from its digits exactly, as a number in plain decimal
    /// or not (`1.5e-10`, as older reports wrote small ones); one that is not a share of at
    /// most 15 digits (a `Double`'s `0.1 + 0.2`) makes the report unreadable, with its value.
    @Test(
        arguments: [
            ("0.001", 1, 1000), ("0.0015", 3, 2000), ("0.00001", 1, 100_000), ("1e-05", 1, 100_000),
            ("0.000015", 3, 200_000), ("0.25", 1, 4), ("1", 1, 1), ("1.0", 1, 1), ("0", 0, 1),
            ("1.5e-10", 3, 20_000_000_000),
        ] as [(String, Int64, Int64)])
    func aReportsThresholdIsReadBackExactly(text: String, numerator: Int64, denominator: Int64) throws {
        let dir = try TempDirectory()
        let bytes = try ReportEncoding.encode(Self.report([]))
        let json = String(decoding: bytes, as: UTF8.self).replacingOccurrences(
            of: "\"threshold\" : 0.001,", with: "\"threshold\" : \(text),")
        #expect(json.contains("\"threshold\" : \(text),"))
        let path = try dir.write("r.json", Array(json.utf8))
        #expect(
            try ReportMerge.read(path: path).report.threshold
                == Threshold(numerator: numerator, denominator: denominator))
    }

    /// A class the rules lack (kept by a `run` whose rules changed) merges like any other; one
    /// no rules file can name, or classes that do not add up to the requests, make the report
    /// unreadable: a forged fleet report neither reaches a terminal nor adds requests.
    @Test(
        arguments: [
            ("\"legacy\" : 2", nil),
            (
                "\"ev\\u001b]0;x\\u0007\" : 2",
                "hour 2026-11-29T17:00:00+08:00 has a class ([\"ev\\u001b]0;x\\u0007\"]) that no rules file can name"
            ),
            ("\"errors\" : 2", "hour 2026-11-29T17:00:00+08:00 has a class (.errors) that no rules file can name"),
            (
                "\"legacy\" : 3",
                "hour 2026-11-29T17:00:00+08:00 has classes and errors that add up to 103, not its 102 requests"
            ),
        ] as [(String, String?)])
    func aClassTheRulesLackMustBeNameableAndAddUp(extra: String, refusal: String?) throws {
        let dir = try TempDirectory()
        var report = Self.report([Self.hour("2026-11-29T17:00:00+08:00", ["urlsession": 100])])
        report.hours[0].requests = 102
        let json = String(decoding: try ReportEncoding.encode(report), as: UTF8.self).replacingOccurrences(
            of: "\"inconsistent\" : 0,", with: "\"inconsistent\" : 0,\n        \(extra),")
        #expect(json.contains(extra))
        let path = try dir.write("r.json", Array(json.utf8))
        if let refusal {
            #expect(throws: MergeError.unreadable(path: path, reason: "is not a valid report: " + refusal)) {
                try ReportMerge.read(path: path)
            }
        } else {
            let read = try ReportMerge.read(path: path).report
            let other = Self.report([Self.hour("2026-11-29T17:00:00+08:00", ["urlsession": 5])])
            let merged = try Self.merge([read, other])
            #expect(merged.hours[0].requests == 107)
            #expect(merged.hours[0].classes["legacy"] == 2)
            #expect(merged.totals.lines == 107)
        }
    }

    @Test func aThresholdOfMoreThanFifteenDigitsIsRefusedWithItsValue() throws {
        let dir = try TempDirectory()
        let json = String(decoding: try ReportEncoding.encode(Self.report([])), as: UTF8.self).replacingOccurrences(
            of: "\"threshold\" : 0.001,", with: "\"threshold\" : 0.30000000000000004,")
        let path = try dir.write("r.json", Array(json.utf8))
        #expect(
            throws: MergeError.unreadable(
                path: path,
                reason:
                    "is not a valid report: 0.30000000000000004 is not a share from 0 to 1 of at most 15 significant digits and 16 decimals at .threshold"
            )
        ) { try ReportMerge.read(path: path) }
    }

    @Test func mergingOneScanReportGivesItBack() throws {
        let dir = try TempDirectory()
        let path = try dir.write("small.log", Array(ReportTests.smallLog().utf8))
        let configuration = ScanConfiguration(
            format: try BuiltinFormats.named("ua_log"), rules: RuleSet.builtin(), threads: 1)
        let report = ReportBuilder.build(
            Scanner(configuration: configuration).scan([path]), configuration: configuration, generatedAt: "now")
        var merged = try Self.merge([report])
        // What it adds: where it came from (a report without an id is known by its content).
        #expect(merged.mergedFrom == [ReportIdentity.contentID(report)])
        #expect(merged.reportID?.hasPrefix("merge-") == true)
        merged.mergedFrom = nil
        merged.reportID = nil
        #expect(merged == report)
    }

    @Test func onlyUAAuditReportsAreRead() throws {
        let dir = try TempDirectory()
        let cases: [(String, String, String)] = [
            ("notjson.json", "hello", "is not JSON: invalid value at line 1, column 1"),
            (
                "twice.json", "{\"schema\": \"uaaudit.report/1\",\n \"threshold\": 0.5, \"threshold\": 0.001}",
                "is not a valid report: key 'threshold' is given twice; give it once (JSON keeps only one of the "
                    + "values, in silence)"
            ),
            ("other.json", #"{"schema": "other/1"}"#, "schema is 'other/1', not uaaudit.report/1"),
            ("none.json", #"{"hours": []}"#, "schema is missing, not uaaudit.report/1"),
            (
                "partial.json", #"{"schema": "uaaudit.report/1"}"#,
                "is not a valid report: missing key 'sources' at the top level"
            ),
        ]
        // A whole report of another schema decodes, and is refused all the same.
        let next = String(decoding: try ReportEncoding.encode(Self.report([])), as: UTF8.self)
            .replacingOccurrences(of: "\"uaaudit.report/1\"", with: "\"uaaudit.report/2\"")
        #expect(next.contains("uaaudit.report/2"))
        for (name, text, reason) in cases + [("next.json", next, "schema is 'uaaudit.report/2', not uaaudit.report/1")]
        {
            let path = try dir.write(name, Array(text.utf8))
            #expect(throws: MergeError.unreadable(path: path, reason: reason)) { try ReportMerge.load(path: path) }
        }
        #expect(
            throws: MergeError.unreadable(path: "/nonexistent/r.json", reason: "cannot read: No such file or directory")
        ) { try ReportMerge.load(path: "/nonexistent/r.json") }
        #expect(throws: MergeError.noReports) { try Self.merge([]) }
    }

    /// A report is a file anyone can edit: a count that is negative or past 2^53 (which would
    /// trap an Int64 sum when merged) makes it unreadable, where it is named.
    @Test func countsOutOfRangeMakeAReportUnreadable() throws {
        let dir = try TempDirectory()
        let fixture = try String(
            contentsOf: ReportTests.fixtures.appendingPathComponent("small.report.json"), encoding: .utf8)
        let totalLines = "\"errors\" : 0,\n    \"lines\" : 126,"
        #expect(fixture.contains(totalLines))
        func with(_ number: String) -> [UInt8] {
            Array(
                fixture.replacingOccurrences(of: totalLines, with: "\"errors\" : 0,\n    \"lines\" : \(number),").utf8)
        }
        let cases: [(String, String)] = [
            ("-5", "is -5"),
            ("9007199254740993", "is 9007199254740993"),
            ("4611686018427387904", "is 4611686018427387904"),
            ("1" + String(repeating: "0", count: 30), "is 1" + String(repeating: "0", count: 30)),
            ("1e30", "is 1e30"),
            // Whole numbers written as decimals decode as integers: 2^53 is as far as they go.
            ("9007199254740992.0", "is 9007199254740992.0"),
            ("9.007199254740992e15", "is 9.007199254740992e15"),
        ]
        for (number, what) in cases {
            let path = try dir.write("r.json", with(number))
            #expect(
                throws: MergeError.unreadable(
                    path: path, reason: "is not a valid report: .totals.lines \(what), not a count from 0 to 2^53")
            ) { try ReportMerge.load(path: path) }
        }
        // 2^53 itself is a count; the fixture's counts add up to its mass.
        let path = try dir.write("max.json", with("9007199254740992"))
        let input = try ReportMerge.Input(path: path)
        #expect(input.report.totals.lines == 9_007_199_254_740_992)
        let small = try ReportMerge.Input(path: ReportTests.fixtures.appendingPathComponent("small.report.json").path)
        #expect(input.mass - small.mass == 9_007_199_254_740_992 - 126)
    }

    /// Numbers written any way count towards the sum: 600 counts of 2^53 - 1 written as decimals
    /// pass 2^62 as surely as written as integers.
    @Test func numbersWrittenAsDecimalsCountTowardsTheSum() throws {
        let one = Array("9007199254740991.0, ".utf8)
        let text = [UInt8(ascii: "[")] + Array(repeating: one, count: 600).joined() + Array("0]".utf8)
        var mass: Int64 = 0
        let found = ReportMerge.outOfRange(try JSONValue.parse(text), mass: &mass)
        #expect(found?.number == "")
        let few = [UInt8(ascii: "[")] + Array(repeating: one, count: 500).joined() + Array("0]".utf8)
        mass = 0
        #expect(ReportMerge.outOfRange(try JSONValue.parse(few), mass: &mass) == nil)
        #expect(mass == 500 * 9_007_199_254_740_991)
        // Inside strings, digits are text: keys and UAs hold them.
        mass = 0
        let strings = try JSONValue.parse(Array(#"{"a-1\"-5": "x -7 1e99", "b": [1, 2.5]}"#.utf8))
        #expect(ReportMerge.outOfRange(strings, mass: &mass) == nil)
        #expect(mass == 4)
    }

    /// A key from the file is shown escaped where it could forge a line of the message.
    @Test func keysInMessagesAreEscaped() {
        #expect(ReportMerge.step("inconsistent") == ".inconsistent")
        #expect(ReportMerge.step("we\u{1B}[31m\nuaaudit: x") == #"["we\u001b[31m\u000auaaudit: x"]"#)
        #expect(ReportMerge.step("a\"b\\") == #"["a\"b\\"]"#)
        #expect(ReportMerge.step("") == #"[""]"#)
    }

    @Test func reportsWhoseCountsAddUpPastTwoToTheSixtySecondAreNotMerged() throws {
        let report = try ReportMerge.load(path: ReportTests.fixtures.appendingPathComponent("small.report.json").path)
        let half = ReportMerge.maxMass / 2
        let two = [
            ReportMerge.Input(path: "a.json", report: report, mass: half),
            .init(path: "b.json", report: report, mass: half),
        ]
        #expect(throws: Never.self) { try ReportMerge.merge(two, options: .init(generatedAt: "now")) }
        let three = two + [ReportMerge.Input(path: "c.json", report: report, mass: 1)]
        #expect(throws: MergeError.tooLarge(paths: ["a.json", "b.json", "c.json"])) {
            try ReportMerge.merge(three, options: .init(generatedAt: "now"))
        }
    }
}

@Suite struct ReportIdentityTests {
    static func source(_ identity: String?, offset: Int64?, bytes: Int64, path: String = "a.log")
        -> Report.SourceEntry
    {
        Report.SourceEntry(path: path, lines: 1, bytes: bytes, error: nil, identity: identity, offset: offset)
    }

    static func report(_ sources: [Report.SourceEntry], id: String?, from: [String]? = nil) throws -> Report {
        var report = try ReportMerge.load(path: ReportTests.fixtures.appendingPathComponent("small.report.json").path)
        report.sources = sources
        report.reportID = id
        report.mergedFrom = from
        return report
    }

    static let cases: [([Report.SourceEntry], [Report.SourceEntry], String?)] = [
        ([source("f1", offset: 0, bytes: 100)], [source("f1", offset: 100, bytes: 50)], nil),
        (
            [source("f1", offset: 0, bytes: 100)], [source("f1", offset: 99, bytes: 50)],
            "both counted bytes 99-100 of a.log"
        ),
        (
            [source("f1", offset: 10, bytes: 100)], [source("f1", offset: 0, bytes: 500, path: "b.log")],
            "both counted bytes 10-110 of a.log (b.log)"
        ),
        ([source("f1", offset: 0, bytes: 100)], [source("f2", offset: 0, bytes: 100)], nil),
        ([source("f1", offset: 0, bytes: 0)], [source("f1", offset: 0, bytes: 0)], nil),
        ([source(nil, offset: nil, bytes: 100)], [source(nil, offset: nil, bytes: 100)], nil),
    ]

    @Test(arguments: cases)
    func reportsOverlapWhenTheyCountedAByteOfTheSameFile(
        a: [Report.SourceEntry], b: [Report.SourceEntry], shared: String?
    ) throws {
        let x = try Self.report(a, id: "scan-a")
        let y = try Self.report(b, id: "scan-b")
        #expect(ReportIdentity.sharedRange(x, y) == shared)
        let overlap = ReportIdentity.overlap([.init(path: "x.json", report: x), .init(path: "y.json", report: y)])
        #expect(overlap == shared.map { .overlapping(first: "x.json", other: "y.json", why: $0) })
    }

    @Test func theSameIDOrAnIDAlreadyMergedOverlaps() throws {
        let a = try Self.report([], id: "scan-a")
        let m = try Self.report([], id: "merge-m", from: ["scan-a", "scan-b"])
        #expect(
            ReportIdentity.overlap([.init(path: "1.json", report: a), .init(path: "2.json", report: a)])
                == .overlapping(first: "1.json", other: "2.json", why: "they are the same report (scan-a)"))
        #expect(
            ReportIdentity.overlap([.init(path: "a.json", report: a), .init(path: "m.json", report: m)])
                == .overlapping(first: "a.json", other: "m.json", why: "m.json already holds a.json (scan-a)"))
    }

    /// The committed report was written before reports had ids: it is known by its content,
    /// the same whenever it was generated.
    @Test func aReportWrittenBeforeIDsIsKnownByItsContent() throws {
        var report = try ReportMerge.load(path: ReportTests.fixtures.appendingPathComponent("small.report.json").path)
        #expect(report.reportID == nil)
        #expect(report.sources.allSatisfy { $0.identity == nil && $0.offset == nil })
        let id = ReportIdentity.id(of: report)
        #expect(id == "content-c4269a8ca1bdbbee7d7e9f21895327ef")
        report.generatedAt = "2030-01-01T00:00:00Z"
        #expect(ReportIdentity.id(of: report) == id)
        report.hours[0].requests += 1
        #expect(ReportIdentity.id(of: report) != id)
    }
}
