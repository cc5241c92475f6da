import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

/// The one builder of an hour's figures: what scan, run and merge all get from it.
@Suite struct HourFiguresTests {
    static let names = ["webview", "urlsession", "inconsistent", "other", "missing"]

    static func entry(
        _ classes: [String: Int64], errors: Int64 = 0, top: [Report.TopEntry] = [], limit: Int = 2
    ) -> Report.HourEntry {
        var counts = HourCounts(classes: classes, errors: errors, outOfScope: 3)
        for item in top { counts.uas[item.ua, default: 0] += item.count }
        return HourFigures.entry(
            hour: HourKey(iso8601: "2026-11-29T17:00:00+08:00")!, counts: counts, classNames: names,
            alertClass: "inconsistent", limit: limit
        ) {
            AlertPolicy.breaches(
                alertCount: $0, requests: $1, threshold: Threshold(parsing: "0.1%")!, minRequests: 100)
        }
    }

    @Test func requestsAreEveryClassPlusErrorsAndSharesAreOfThem() {
        let e = Self.entry(["webview": 150, "inconsistent": 40], errors: 10)
        #expect(e.requests == 200)
        #expect(e.classes == ["webview": 150, "urlsession": 0, "inconsistent": 40, "other": 0, "missing": 0])
        #expect(e.share == 0.2)
        #expect(e.shares["webview"] == 0.75)
        #expect(e.shares["missing"] == 0)
        #expect(e.outOfScope == 3)
        #expect(e.alert)
    }

    /// A class the rules lack (a `run` state's hour counted under rules since changed) keeps
    /// its lines: in the classes, the requests and every share's denominator (issue 35: it was
    /// dropped, and 102 lines read made `requests: 2`).
    @Test func aClassTheRulesLackStaysCounted() {
        let e = Self.entry(["webview": 150, "inconsistent": 40, "legacy": 99], errors: 10)
        #expect(e.requests == 299)
        #expect(
            e.classes == ["webview": 150, "urlsession": 0, "inconsistent": 40, "other": 0, "missing": 0, "legacy": 99])
        #expect(e.share == 40.0 / 299)
        #expect(e.shares["legacy"] == 99.0 / 299)
        let totals = HourFigures.totals(
            of: [e, Self.entry(["webview": 1], errors: 0)], classNames: Self.names, alertClass: "inconsistent",
            malformed: 2, driftAlerts: false)
        #expect(totals.requests == 300)
        #expect(totals.lines == 300 + 2 + 6)
        #expect(totals.classes["legacy"] == 99)
    }

    @Test func anHourUnderMinRequestsDoesNotAlertAndAnEmptyHourHasShareZero() {
        #expect(!Self.entry(["inconsistent": 99]).alert)
        #expect(Self.entry(["inconsistent": 100]).alert)
        let empty = Self.entry([:])
        #expect(empty.requests == 0)
        #expect(empty.share == 0)
        #expect(!empty.alert)
    }

    @Test func theTopListIsByCountThenByTextAndCut() {
        let e = Self.entry(
            ["inconsistent": 9],
            top: [.init(ua: "b", count: 3), .init(ua: "c", count: 5), .init(ua: "a", count: 3)])
        #expect(e.top == [.init(ua: "c", count: 5), .init(ua: "a", count: 3)])
    }

    @Test func totalsAddTheHoursUpAndListTheAlertingOnes() {
        var quiet = Self.entry(["webview": 50])
        quiet.drift = Report.DriftEntry(
            baselineHours: 1, newFamilies: [], newRequests: 0, approximate: false, appShares: [], alert: true,
            reasons: ["x"])
        let loud = Self.entry(["webview": 150, "inconsistent": 40], errors: 10)
        let totals = HourFigures.totals(
            of: [quiet, loud], classNames: Self.names, alertClass: "inconsistent", malformed: 7, driftAlerts: true)
        #expect(totals.requests == 250)
        #expect(totals.lines == 250 + 7 + 6)
        #expect(totals.classes["webview"] == 200)
        #expect(totals.errors == 10)
        #expect(totals.outOfScope == 6)
        #expect(totals.share == 40.0 / 250.0)
        #expect(totals.alertHours == [loud.hour])
        #expect(totals.driftAlertHours == [quiet.hour])
        let without = HourFigures.totals(
            of: [quiet], classNames: Self.names, alertClass: "inconsistent", malformed: 0, driftAlerts: false)
        #expect(without.driftAlertHours == nil)
    }

    @Test func aMergedHourThatARunLeftOpenDoesNotAlert() {
        let t = Threshold(parsing: "0.1%")!
        #expect(AlertPolicy.alerts(alertCount: 50, requests: 100, threshold: t, minRequests: 100, closed: nil))
        #expect(AlertPolicy.alerts(alertCount: 50, requests: 100, threshold: t, minRequests: 100, closed: true))
        #expect(!AlertPolicy.alerts(alertCount: 50, requests: 100, threshold: t, minRequests: 100, closed: false))
    }
}
