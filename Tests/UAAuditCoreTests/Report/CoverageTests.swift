import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

@Suite struct CoverageTests {
    static func rules(app: String?) -> RulesSummary {
        RulesSummary(
            order: ["webview", "urlsession", "inconsistent"], alertClass: "inconsistent", patterns: [:], scope: nil,
            app: app)
    }

    @Test func warnsAboutTheAppsOwnFamilyAndLargeFamiliesInOther() throws {
        let families: [String: [String: Int64]] = [
            "MyApp/#.#.# (iPhone; iOS #.#; Scale/#.##)": ["other": 41],
            "curl/#.#.#": ["other": 12],
            "Mozilla/#.# (Windows NT #.#)": ["other": 5],
            "MyApp/#.#.# (iPhone; iOS #_#)": ["urlsession": 42],
        ]
        let entry = try #require(
            Coverage.entry(
                families: families, approximate: false, requests: 100, minRequests: 10, rules: Self.rules(app: "MyApp"))
        )
        #expect(
            entry.otherFamilies == [
                Report.OtherFamilyEntry(
                    family: "MyApp/#.#.# (iPhone; iOS #.#; Scale/#.##)", count: 41, share: 0.41, app: true),
                Report.OtherFamilyEntry(family: "curl/#.#.#", count: 12, share: 0.12, app: nil),
                Report.OtherFamilyEntry(family: "Mozilla/#.# (Windows NT #.#)", count: 5, share: 0.05, app: nil),
            ])
        #expect(
            entry.warnings == [
                "`MyApp/#.#.# (iPhone; iOS #.#; Scale/#.##)` is 41% of requests and classed other: it names the app "
                    + "MyApp; does your `urlsession` rule match it? "
                    + "`uaaudit classify [--rules FILE] 'MyApp/1.1.1 (iPhone; iOS 1.1; Scale/1.11)'`",
                "`curl/#.#.#` is 12% of requests and classed other: does a rule match it? "
                    + "`uaaudit classify [--rules FILE] 'curl/1.1.1'`",
            ])
    }

    @Test func appNamesWithDigitsAndAnyCaseAreFound() throws {
        let entry = try #require(
            Coverage.entry(
                families: ["TAP#PAY/# CFNetwork/#.# Darwin/#.#.#": ["other": 1]], approximate: false, requests: 1000,
                minRequests: 10, rules: Self.rules(app: "Tap2Pay")))
        #expect(entry.otherFamilies.first?.app == true)
        #expect(entry.warnings.count == 1)
        #expect(entry.warnings.first?.contains("does your `inconsistent` rule match it?") == true)
    }

    @Test func smallHoursAndNoOtherGiveNoWarningOrNoEntry() {
        let few = Coverage.entry(
            families: ["curl/#": ["other": 5]], approximate: false, requests: 5, minRequests: 10,
            rules: Self.rules(app: nil))
        #expect(few?.warnings == [])
        #expect(
            Coverage.entry(
                families: ["x": ["webview": 5]], approximate: false, requests: 5, minRequests: 1,
                rules: Self.rules(app: nil))
                == nil)
    }

    @Test func quotesInTheExampleAreSafeForTheShell() {
        #expect(Coverage.exampleUA("it's #") == "it'\\''s 1")
    }
}

@Suite struct CoverageOtherAppTests {
    /// An app's own custom UA that carries CFNetwork tokens falls to other_app under rules that
    /// miss its shape: named, though it is not `other`.
    @Test func aFamilyInOtherAppThatNamesTheAppIsWarnedAbout() throws {
        let families: [String: [String: Int64]] = [
            "Snipd/#.#.# CFNetwork/#.#.# Darwin/#.#.# (iPhone iOS/#.#)": ["other_app": 30],
            "WhatsApp/#.#.#.# CFNetwork/# Darwin/#.#.#": ["other_app": 50],
            "Snipd/#.#.# (iPhone; iOS #.#)": ["urlsession": 20],
        ]
        let entry = try #require(
            Coverage.entry(
                families: families, approximate: false, requests: 100, minRequests: 10,
                rules: CoverageTests.rules(app: "Snipd")))
        #expect(entry.otherFamilies == [])
        #expect(
            entry.warnings == [
                "`Snipd/#.#.# CFNetwork/#.#.# Darwin/#.#.# (iPhone iOS/#.#)` is 30% of requests and classed "
                    + "other_app, but it names the app Snipd: if it is your app's own UA, make a rule of your app's "
                    + "classes match it. `uaaudit classify [--rules FILE] "
                    + "'Snipd/1.1.1 CFNetwork/1.1.1 Darwin/1.1.1 (iPhone iOS/1.1)'`"
            ])
        // Without an app name in the rules, other_app is other apps' and says nothing.
        #expect(
            Coverage.entry(
                families: families, approximate: false, requests: 100, minRequests: 10,
                rules: CoverageTests.rules(app: nil)) == nil)
    }
}
