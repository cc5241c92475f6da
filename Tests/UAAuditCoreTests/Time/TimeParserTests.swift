import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

extension TimeParser {
    mutating func parseLocal(_ text: String) -> HourKey? {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBytes { parseLocal($0.baseAddress!, count: bytes.count) }
    }

    static func parseISO8601(_ text: String, requireWholeHour: Bool = false) -> HourKey? {
        parseISO8601(Array(text.utf8), requireWholeHour: requireWholeHour)
    }

    static func parseMsec(_ text: String) -> HourKey? {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBytes { parseMsec($0.baseAddress!, count: bytes.count) }
    }
}

@Suite struct TimeParserTests {
    // MARK: $time_local

    @Test(arguments: [
        ("29/Nov/2026:17:18:40 +0800", hourKey(2026, 11, 29, 17, 480)),
        ("01/Jan/1970:00:00:00 +0000", hourKey(1970, 1, 1, 0, 0)),
        ("31/Dec/1969:23:59:59 -0100", hourKey(1969, 12, 31, 23, -60)),
        ("15/Mar/2026:08:59:59 +0530", hourKey(2026, 3, 15, 8, 330)),
        ("15/Mar/2026:08:00:00 -0930", hourKey(2026, 3, 15, 8, -570)),
        ("01/Jan/2026:00:00:00 +1400", hourKey(2026, 1, 1, 0, 840)),
        ("01/Jan/2026:00:00:00 -1200", hourKey(2026, 1, 1, 0, -720)),
        ("01/Jan/2026:00:00:00 -0000", hourKey(2026, 1, 1, 0, 0)),
        ("01/Jan/2026:00:00:00 +2359", hourKey(2026, 1, 1, 0, 1439)),
        ("29/Feb/2024:12:30:00 +0000", hourKey(2024, 2, 29, 12, 0)),
        ("29/Feb/2000:12:30:00 +0000", hourKey(2000, 2, 29, 12, 0)),
        ("28/Feb/1900:23:00:00 +0000", hourKey(1900, 2, 28, 23, 0)),
        ("30/Jun/2026:23:59:60 +0000", hourKey(2026, 6, 30, 23, 0)),
        ("31/Dec/9999:23:59:59 +0000", hourKey(9999, 12, 31, 23, 0)),
    ])
    func parsesTimeLocal(text: String, key: HourKey) {
        var parser = TimeParser()
        #expect(parser.parseLocal(text) == key)
    }

    @Test(
        arguments: Array(
            zip(
                ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"], 1...12)))
    func englishMonthNames(name: String, month: Int) {
        var parser = TimeParser()
        #expect(parser.parseLocal("01/\(name)/2026:10:00:00 +0000") == hourKey(2026, month, 1, 10, 0))
    }

    @Test(arguments: [
        "29/Nov/2026:17:18:40 +080",  // 25 bytes
        "29/Nov/2026:17:18:40 +08000",  // 27 bytes
        "9/Nov/2026:17:18:40 +08000",
        "",
        "29/Nvo/2026:17:18:40 +0800",
        "29/nov/2026:17:18:40 +0800",
        "29/NOV/2026:17:18:40 +0800",
        "29/Noé/2026:17:18:40 +080",
        "31/Nov/2026:17:18:40 +0800",
        "31/Apr/2026:17:18:40 +0800",
        "32/Jan/2026:17:18:40 +0800",
        "00/Jan/2026:17:18:40 +0800",
        "29/Feb/2026:12:00:00 +0000",
        "29/Feb/1900:12:00:00 +0000",
        "30/Feb/2024:12:00:00 +0000",
        "29/Nov/2026:24:00:00 +0800",
        "29/Nov/2026:17:60:00 +0800",
        "29/Nov/2026:17:18:61 +0800",
        "29/Nov/2026:17:18:40 +2400",
        "29/Nov/2026:17:18:40 +0860",
        "29/Nov/2026:17:18:40 *0800",
        "29/Nov/2026:17:18:40  0800",
        "29/Nov/2026:17:18:40 +08:0",
        "29/Nov/2026:17:18:40_+0800",
        "29-Nov-2026:17:18:40 +0800",
        "29/Nov/2026 17:18:40 +0800",
        "29/Nov/2026:17-18-40 +0800",
        "2a/Nov/2026:17:18:40 +0800",
        "29/Nov/20x6:17:18:40 +0800",
        "29/Nov/2026:1a:18:40 +0800",
        "29/Nov/2026:17:1a:40 +0800",
        "29/Nov/2026:17:18:4a +0800",
        "29/Nov/2026:17:18:40 +08a0",
        "2026-11-29T17:18:40+08:00",
    ])
    func rejectsBadTimeLocal(_ text: String) {
        var parser = TimeParser()
        #expect(parser.parseLocal(text) == nil)
    }

    // MARK: The cache

    @Test func cacheFollowsEveryField() {
        // One parser, as a tokenizer uses it: each answer must be right for its own line.
        var parser = TimeParser()
        let steps: [(String, HourKey?)] = [
            ("29/Nov/2026:17:18:40 +0800", hourKey(2026, 11, 29, 17, 480)),
            ("29/Nov/2026:17:59:59 +0800", hourKey(2026, 11, 29, 17, 480)),  // only minutes change
            ("29/Nov/2026:17:00:00 +0800", hourKey(2026, 11, 29, 17, 480)),
            ("29/Nov/2026:18:00:00 +0800", hourKey(2026, 11, 29, 18, 480)),  // the hour changes
            ("29/Nov/2026:18:00:00 +0530", hourKey(2026, 11, 29, 18, 330)),  // only the offset changes
            ("29/Nov/2026:18:00:00 -0530", hourKey(2026, 11, 29, 18, -330)),  // only its sign changes
            ("29/Nov/2026:18:00:00 -0531", hourKey(2026, 11, 29, 18, -331)),  // only its last digit changes
            ("29/Nov/2026:18:60:00 -0531", nil),  // same hour, bad minutes
            ("29/Nov/2026:18:00:61 -0531", nil),  // same hour, bad seconds
            ("29/Nov/2026:18:00:00 -0560", nil),  // same hour, bad offset
            ("29/Nov/2026:18:00:00 -0531", hourKey(2026, 11, 29, 18, -331)),
            ("30/Nov/2026:18:00:00 -0531", hourKey(2026, 11, 30, 18, -331)),  // only the day changes
            ("30/Dec/2026:18:00:00 -0531", hourKey(2026, 12, 30, 18, -331)),  // only the month changes
            ("30/Dec/2027:18:00:00 -0531", hourKey(2027, 12, 30, 18, -331)),  // only the year changes
            ("31/Nov/2027:18:00:00 -0531", nil),
            ("30/Dec/2027:18:00:00 -0531", hourKey(2027, 12, 30, 18, -331)),
            ("30/Dec/2027:18:00:00 -0531x", nil),  // wrong length after a cached hit
            ("30/Dec/2027:18:00:00_-0531", nil),
        ]
        for (text, key) in steps {
            #expect(parser.parseLocal(text) == key, "\(text)")
        }
    }

    /// The same time again (most lines of a busy log), right after it or after times that did
    /// not parse: the same hour and second, not those of the failed ones.
    @Test func aRepeatedTimeKeepsItsHourAndSecond() {
        var parser = TimeParser()
        let steps: [(String, HourKey?, Int)] = [
            ("29/Nov/2026:17:18:40 +0800", hourKey(2026, 11, 29, 17, 480), 18 * 60 + 40),
            ("29/Nov/2026:17:18:40 +0800", hourKey(2026, 11, 29, 17, 480), 18 * 60 + 40),
            ("29/Nov/2026:17:18:41 +0800", hourKey(2026, 11, 29, 17, 480), 18 * 60 + 41),
            ("31/Nov/2026:17:59:59 +0800", nil, 0),  // minute and second read, then the date fails
            ("29/Nov/2026:17:18:41 +0800", hourKey(2026, 11, 29, 17, 480), 18 * 60 + 41),
            ("29/Nov/2026:17:18:41 +0860", nil, 0),
            ("29/Nov/2026:17:18:41 +0800", hourKey(2026, 11, 29, 17, 480), 18 * 60 + 41),
            ("29/Nov/2026:17:18:41 +0801", hourKey(2026, 11, 29, 17, 481), 18 * 60 + 41),  // the last byte
            ("29/Nov/2026:17:18:41 +0800", hourKey(2026, 11, 29, 17, 480), 18 * 60 + 41),
            ("28/Nov/2026:17:18:41 +0800", hourKey(2026, 11, 28, 17, 480), 18 * 60 + 41),  // the first byte
            ("28/Nov/2026:17:18:41 +0800", hourKey(2026, 11, 28, 17, 480), 18 * 60 + 41),
        ]
        for (text, key, second) in steps {
            #expect(parser.parseLocal(text) == key, "\(text)")
            if key != nil { #expect(parser.secondOfHour == second, "\(text)") }
        }
    }

    // MARK: $time_iso8601

    @Test(arguments: [
        ("2026-11-29T17:18:40+08:00", hourKey(2026, 11, 29, 17, 480)),
        ("2026-11-29T17:18:40-09:30", hourKey(2026, 11, 29, 17, -570)),
        ("2026-03-15T08:59:59+05:30", hourKey(2026, 3, 15, 8, 330)),
        ("2026-11-29T17:18:40+00:00", hourKey(2026, 11, 29, 17, 0)),
        ("2026-11-29T17:18:40Z", hourKey(2026, 11, 29, 17, 0)),
        ("1969-12-31T23:59:59-01:00", hourKey(1969, 12, 31, 23, -60)),
        ("2024-02-29T00:00:00+14:00", hourKey(2024, 2, 29, 0, 840)),
        ("2026-06-30T23:59:60+00:00", hourKey(2026, 6, 30, 23, 0)),
    ])
    func parsesISO8601(text: String, key: HourKey) {
        #expect(TimeParser.parseISO8601(text) == key)
    }

    @Test(arguments: [
        "2026-13-29T17:18:40+08:00",
        "2026-00-29T17:18:40+08:00",
        "2026-11-31T17:18:40+08:00",
        "2026-11-00T17:18:40+08:00",
        "2026-02-29T17:18:40+08:00",
        "2026-11-29T24:00:00+08:00",
        "2026-11-29T17:60:00+08:00",
        "2026-11-29T17:18:61+08:00",
        "2026-11-29 17:18:40+08:00",
        "2026/11/29T17:18:40+08:00",
        "2026-11-29T17:18:40+0800",
        "2026-11-29T17:18:40+08-00",
        "2026-11-29T17:18:40 08:00",
        "2026-11-29T17:18:40+24:00",
        "2026-11-29T17:18:40+08:60",
        "2026-11-29T17:18:40+08:00Z",
        "2026-11-29T17:18:40X",
        "2026-11-29T17:18:4",
        "2026-11-29T17:18:40.123+08:00",
        "29/Nov/2026:17:18:40 +0800",
        "",
    ])
    func rejectsBadISO8601(_ text: String) {
        #expect(TimeParser.parseISO8601(text) == nil)
    }

    @Test func wholeHourOnlyWhenAsked() {
        #expect(
            TimeParser.parseISO8601("2026-11-29T17:00:00+08:00", requireWholeHour: true)
                == hourKey(2026, 11, 29, 17, 480))
        #expect(TimeParser.parseISO8601("2026-11-29T17:00:01+08:00", requireWholeHour: true) == nil)
        #expect(TimeParser.parseISO8601("2026-11-29T17:01:00+08:00", requireWholeHour: true) == nil)
        #expect(TimeParser.parseISO8601("2026-11-29T17:01:00+08:00") == hourKey(2026, 11, 29, 17, 480))
    }

    // MARK: $msec

    @Test(arguments: [
        ("1795943920.123", HourKey(localHour: 498873, offsetMinutes: 0)),
        ("1764407920.123", HourKey(localHour: 490113, offsetMinutes: 0)),
        ("0.000", HourKey(localHour: 0, offsetMinutes: 0)),
        ("3599.999", HourKey(localHour: 0, offsetMinutes: 0)),
        ("3600.000", HourKey(localHour: 1, offsetMinutes: 0)),
        ("1795943920", HourKey(localHour: 498873, offsetMinutes: 0)),
        ("1795943920.1", HourKey(localHour: 498873, offsetMinutes: 0)),
        ("9999999999.999", HourKey(localHour: 2_777_777, offsetMinutes: 0)),  // ten digits at most (year 2286)
    ])
    func parsesMsec(text: String, key: HourKey) {
        #expect(TimeParser.parseMsec(text) == key)
    }

    @Test func msecIsTheSameInstantAsTheLocalTime() throws {
        var parser = TimeParser()
        let parsed = parser.parseLocal("29/Nov/2026:17:18:40 +0800")
        let local = try #require(parsed)
        let msec = try #require(TimeParser.parseMsec("1795943920.123"))
        #expect(msec == hourKey(2026, 11, 29, 9, 0))
        #expect(msec.startInstant == local.startInstant)
        #expect(msec != local)
    }

    @Test(arguments: [
        "", ".123", "123.", "1.2.3", "-1.000", "+1.000", "12a.000", "123.45a", "1e9", " 123.000", "123.000 ",
        "1234567890123.000",  // 13 digits of seconds
        "123456789012.12345678",  // 21 bytes
        "-",
    ])
    func rejectsBadMsec(_ text: String) {
        #expect(TimeParser.parseMsec(text) == nil)
    }
}
