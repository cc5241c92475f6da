import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

@Suite struct TallyTests {
    @Test func bucketsAreCreatedOncePerHourWhateverTheOrder() {
        let tally = Tally(classCount: 5, sampleLimit: 10)
        let a = HourKey(localHour: 100, offsetMinutes: 480)
        let b = HourKey(localHour: 101, offsetMinutes: 480)
        let c = HourKey(localHour: 100, offsetMinutes: 0)
        let order = [a, b, a, c, b, a]
        let buckets = order.map { tally.bucket($0) }
        #expect(buckets == [0, 1, 0, 2, 1, 0])
        #expect(tally.hours == [a, b, c])
        for bucket in buckets { tally.count(bucket: bucket, slot: 3) }
        #expect(tally.value(bucket: 0, slot: 3) == 3)
        #expect(tally.value(bucket: 1, slot: 3) == 2)
        #expect(tally.value(bucket: 2, slot: 3) == 1)
        // Five classes, errors and out of scope, then seven status counters per class.
        #expect(tally.width == 5 + 2 + 5 * 7)
    }

    @Test func alertUATableIsBoundedAndCountsWhatDoesNotFitAsUntracked() {
        // A bucket takes at most a quarter of the table: 2 of 8 entries.
        let tally = Tally(classCount: 5, sampleLimit: 10, alertTableEntries: 8, alertArenaBytes: 1024)
        let bucket = tally.bucket(HourKey(localHour: 1, offsetMinutes: 0))
        for ua in ["a", "b", "a", "c", "d", "a"] {
            Array(ua.utf8).withUnsafeBytes { tally.countAlertUA(bucket: bucket, raw: $0) }
        }
        #expect(tally.alertUAs.count == 2)
        #expect(tally.alertUAs.values[0] == 3)
        #expect(tally.alertUAs.values[1] == 1)
        #expect(tally.untracked[bucket] == 2)
    }

    @Test func malformedSamplesStopAtTheLimitButTheCountGoesOn() {
        let tally = Tally(classCount: 5, sampleLimit: 2)
        for line in 1...5 {
            Array("bad \(line)".utf8).withUnsafeBytes {
                tally.countMalformed(line: Int64(line), text: $0, reason: .format)
            }
        }
        #expect(tally.malformed == 5)
        #expect(tally.samples.map(\.line) == [1, 2])
        #expect(tally.samples.map { String(decoding: $0.text, as: UTF8.self) } == ["bad 1", "bad 2"])
    }
}

@Suite struct AuditResultTests {
    @Test func alertUAsOfAnHourStayBoundedAcrossInputsAndSayTheTopIsApproximate() {
        var result = AuditResult(classCount: 5, sampleLimit: 10)
        let key = HourKey(localHour: 1, offsetMinutes: 0)
        let perTally = 5_000
        for file in 0..<6 {
            let tally = Tally(classCount: 5, sampleLimit: 10, alertTableEntries: perTally * 2, alertArenaBytes: 1 << 20)
            let bucket = tally.bucket(key)
            for i in 0..<perTally {
                let ua = Array("ua-\(file)-\(i)".utf8)
                let repeats = i == 0 ? 50 : 1  // one UA per input stands out
                for _ in 0..<repeats { ua.withUnsafeBytes { tally.countAlertUA(bucket: bucket, raw: $0) } }
            }
            result.absorb(tally, path: "f\(file)", firstLine: 1, escape: .default)
        }
        let hour = result.hours[key]!
        #expect(hour.alertUAs.count <= AuditResult.maxAlertUAsPerHour)
        #expect(hour.untrackedAlertUAs > 0)
        // What was kept plus what was dropped is every alert-class request.
        #expect(hour.alertUAs.values.reduce(0, +) + hour.untrackedAlertUAs == Int64(6 * (perTally - 1 + 50)))
        // The frequent UAs survive the trimming.
        for file in 0..<6 { #expect(hour.alertUAs[Array("ua-\(file)-0".utf8)] == 50) }
    }

    /// An alert-class UA longer than 1 KiB is kept as its first 1 KiB (never half a UTF-8
    /// character) and its whole length, so that an hour's table is bounded in bytes (issue 31).
    @Test func longAlertUAsAreKeptCutWithTheirLength() {
        let a = [UInt8](repeating: 0x61, count: 1_024)
        #expect(AuditResult.maxAlertUABytes == 1_024)
        #expect(AuditResult.keptText(a) == a)
        #expect(AuditResult.keptText(a + [0x62]) == a + Array(" …[1025 bytes]".utf8))
        // 'é' (C3 A9) across the cut: cut before it.
        let straddling = a.dropLast() + [0xC3, 0xA9] + [UInt8](repeating: 0x62, count: 30_000)
        #expect(AuditResult.keptText(straddling) == a.dropLast() + Array(" …[31025 bytes]".utf8))
        // Absorbed from a tally: the hour keeps the cut text.
        var result = AuditResult(classCount: 5, sampleLimit: 10)
        let key = HourKey(localHour: 1, offsetMinutes: 0)
        let tally = Tally(classCount: 5, sampleLimit: 10)
        let long = Array("SDK/1 ".utf8) + [UInt8](repeating: 0x78, count: 30_000)
        long.withUnsafeBytes { tally.countAlertUA(bucket: tally.bucket(key), raw: $0) }
        result.absorb(tally, path: "f", firstLine: 1, escape: .default)
        #expect(result.hours[key]?.alertUAs == [Array(long.prefix(1_024)) + Array(" …[30006 bytes]".utf8): 1])
    }
}

/// Clients of many inputs' hours: the result keeps at most its budget of entries in all, and
/// what it samples still estimates every hour within four standard errors.
@Suite struct AuditResultClientBudgetTests {
    @Test func manyHoursOfManyInputsStayWithinTheClientBudget() {
        var result = AuditResult(classCount: 5, sampleLimit: 10)
        for input in 0..<4 {
            let tally = Tally(classCount: 5, sampleLimit: 10, clientEntries: 131_072)
            for h in 0..<3 {
                let bucket = tally.bucket(HourKey(localHour: Int64(input * 3 + h), offsetMinutes: 0))
                for c in 0..<40_000 {
                    Array("client-\(input)-\(h)-\(c)".utf8).withUnsafeBytes {
                        tally.clients!.note(bucket: bucket, key: $0, bits: ClientSample.app)
                    }
                }
            }
            result.absorb(tally, path: "in\(input)", firstLine: 1, escape: .default)
        }
        let sets = result.hours.values.map(\.clients)
        #expect(sets.count == 12)
        #expect(sets.reduce(0) { $0 + $1.masks.count } <= AuditResult.clientBudget)
        #expect(sets.contains { $0.level > 0 })
        for set in sets {
            let c = set.counts
            #expect(abs(Double(c.estimate(c.app) - 40_000)) <= max(4 * c.standardError(c.app), 0.5))
        }
    }
}

/// Detail lists are kept whole for ``AuditResult/detailHours`` hours and for every hour the
/// alert policy keeps; the oldest others keep only their 20 most frequent UAs and paths, and
/// their counts stay exact.
@Suite struct AuditResultDetailBoundTests {
    /// `hours` hours of 25 alert-class requests, each with its own UA and path; hour 3 has 30
    /// (the test's alert policy: 30 or more).
    static func result(hours: Int, detailHours: Int) -> AuditResult {
        var result = AuditResult(classCount: 5, sampleLimit: 10)
        result.detailHours = detailHours
        result.keepsDetails = { $0.counts[2] >= 30 }
        // Two inputs, so the bound is applied as hours arrive and again after.
        for half in 0..<2 {
            let tally = Tally(classCount: 5, sampleLimit: 10)
            for h in stride(from: half, to: hours, by: 2) {
                let bucket = tally.bucket(HourKey(localHour: Int64(h), offsetMinutes: 0))
                for i in 0..<(h == 3 ? 30 : 25) {
                    tally.count(bucket: bucket, slot: 2)
                    Array("ua-\(h)-\(i)".utf8).withUnsafeBytes { tally.countAlertUA(bucket: bucket, raw: $0) }
                    Array("/p\(h)/\(i)".utf8).withUnsafeBytes {
                        tally.countAlertPath(bucket: bucket, path: $0, rejected: false)
                    }
                }
            }
            result.absorb(tally, path: "in\(half)", firstLine: 1, escape: .default)
        }
        return result
    }

    @Test func theOldestHoursBeyondTheBoundKeepOnlyTheirTopListsAndAllTheirCounts() throws {
        let result = Self.result(hours: 20, detailHours: 8)
        let dropped = result.hours.filter(\.value.detailsDropped).keys.map(\.localHour).sorted()
        // 20 hours, the newest 8 keep their lists, and hour 3 (alerting) keeps its own too.
        #expect(dropped == [0, 1, 2, 4, 5, 6, 7, 8, 9, 10, 11])
        for (key, hour) in result.hours {
            let requests: Int64 = key.localHour == 3 ? 30 : 25
            #expect(hour.counts[2] == requests)
            let kept = hour.detailsDropped ? 20 : Int(requests)
            #expect(hour.alertUAs.count == kept)
            #expect(hour.paths.count == kept)
            #expect(hour.untrackedAlertUAs == requests - Int64(kept))
            #expect(hour.untrackedPaths == requests - Int64(kept))
        }
        let report = ReportBuilder.build(
            result,
            configuration: ScanConfiguration(format: try BuiltinFormats.named("ua_log"), rules: RuleSet.builtin()),
            generatedAt: "x")
        #expect(report.hours.filter { $0.detailsDropped == true }.count == 11)
        #expect(
            report.hours.filter { $0.detailsDropped == true }.allSatisfy { $0.top.count == 10 && $0.topApproximate })
    }

    @Test func underTheBoundNothingIsDropped() {
        let result = Self.result(hours: 8, detailHours: 8)
        #expect(!result.hours.values.contains { $0.detailsDropped })
    }

    /// An hour of 17,000 distinct alert-class UAs and paths cannot leave the next hour of the
    /// same chunk without its lists: a bucket takes at most a quarter of a table.
    @Test func aFloodedHourLeavesRoomForTheNextInTheSameTally() {
        let tally = Tally(classCount: 5, sampleLimit: 10)
        let flooded = tally.bucket(HourKey(localHour: 0, offsetMinutes: 0))
        for i in 0..<17_000 {
            Array("junk\(i) com.apple.CFNetwork".utf8).withUnsafeBytes { tally.countAlertUA(bucket: flooded, raw: $0) }
            Array("/j\(i)".utf8).withUnsafeBytes { tally.countAlertPath(bucket: flooded, path: $0, rejected: false) }
        }
        let next = tally.bucket(HourKey(localHour: 1, offsetMinutes: 0))
        for _ in 0..<300 {
            Array("RealSDK/2.0 com.apple.CFNetwork/1494".utf8).withUnsafeBytes {
                tally.countAlertUA(bucket: next, raw: $0)
            }
            Array("/api/login".utf8).withUnsafeBytes { tally.countAlertPath(bucket: next, path: $0, rejected: true) }
        }
        var result = AuditResult(classCount: 5, sampleLimit: 10)
        result.absorb(tally, path: "flood", firstLine: 1, escape: .default)
        let hour = result.hours[HourKey(localHour: 1, offsetMinutes: 0)]
        #expect(hour?.alertUAs[Array("RealSDK/2.0 com.apple.CFNetwork/1494".utf8)] == 300)
        #expect(hour?.paths[Array("/api/login".utf8)]?.count == 300)
        #expect(hour?.untrackedAlertUAs == 0)
        let first = result.hours[HourKey(localHour: 0, offsetMinutes: 0)]
        #expect((first?.untrackedAlertUAs ?? 0) > 0)
    }
}
