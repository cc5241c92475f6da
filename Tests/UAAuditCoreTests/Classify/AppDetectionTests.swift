import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

@Suite struct AppDetectionTests {
    static let safari =
        "Mozilla/5.0 (iPhone; CPU iPhone OS 17_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.2 Mobile/15E148 Safari/604.1"

    @Test func oneAppDominatesWithItsShapesBundlesAndToken() throws {
        let detection = AppDetection.detect([
            (ua: "MyShop/3.2.1 (iPhone; iOS 17.4; Scale/3.00)", count: 60),
            (ua: "MyShop/1 CFNetwork/1494.0.7 Darwin/23.4.0", count: 25),
            (ua: "MyShop WatchKit Extension/1 CFNetwork/1494.0.7 Darwin/23.4.0", count: 3),
            (ua: "Myshop%20Widgets/1 CFNetwork/1494.0.7 Darwin/23.4.0", count: 2),
            (
                ua:
                    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 MYSHOP/3.2.1",
                count: 10
            ),
            (ua: "Slack/23 CFNetwork/1494.0.7 Darwin/23.4.0", count: 4),
            (ua: Self.safari, count: 96),
        ])
        #expect(detection.requests == 200)
        let app = try #require(detection.dominant)
        #expect(app.name == "MyShop")
        #expect(app.requests == 100)
        #expect(app.shapes == [.custom: 60, .cfnetworkDefault: 30, .webview: 10])
        #expect(app.shapesSeen == [.custom, .cfnetworkDefault, .webview])
        // Its own name, in any case, and its extensions need no --bundle (rules init matches them).
        #expect(app.bundles == [])
        #expect(app.webviewToken == "MYSHOP")
        #expect(
            app.rulesInitCommand(out: "/etc/uaaudit/rules.json")
                == "uaaudit rules init --app MyShop --webview-token MYSHOP --out /etc/uaaudit/rules.json")
        #expect(detection.candidates.map(\.name) == ["MyShop", "Slack"])
    }

    @Test func twoAppsOfSimilarSizeAreAmbiguous() {
        let detection = AppDetection.detect([
            (ua: "MyShop/3.2.1 (iPhone; iOS 17.4)", count: 50),
            (ua: "OtherShop/1.0 (iPhone; iOS 17.4)", count: 20),
        ])
        #expect(detection.dominant == nil)
        #expect(detection.candidates.map(\.name) == ["MyShop", "OtherShop"])
        #expect(detection.candidates.map(\.requests) == [50, 20])
    }

    @Test(arguments: [
        // Exactly 3× the next: taken; one request fewer: not.
        ([(ua: "A1/1 (iPhone; iOS 17)", count: Int64(30)), (ua: "B1/1 (iPhone; iOS 17)", count: Int64(10))], "A1"),
        ([(ua: "A1/1 (iPhone; iOS 17)", count: Int64(29)), (ua: "B1/1 (iPhone; iOS 17)", count: Int64(10))], nil),
        // Fewer than 10 requests: not taken.
        ([(ua: "A1/1 (iPhone; iOS 17)", count: Int64(9))], nil),
        ([(ua: "A1/1 (iPhone; iOS 17)", count: Int64(10))], "A1"),
    ])
    func dominanceIsThreeTimesTheNextAndTenRequests(_ uas: [(ua: String, count: Int64)], _ expected: String?) {
        #expect(AppDetection.detect(uas).dominant?.name == expected)
    }

    @Test func anAppUnderOnePercentOfTheSampleIsNotTaken() {
        let uas = [(ua: "A1/1 (iPhone; iOS 17)", count: Int64(10))]
        #expect(AppDetection.detect(uas, requests: 1001).dominant == nil)
        #expect(AppDetection.detect(uas, requests: 1000).dominant?.name == "A1")
    }

    @Test func namesThatNeedQuotesAreQuotedForTheShell() {
        let app = AppDetection.Candidate(name: "Bob's App", bundles: ["Bob's App Widget Pro"])
        #expect(
            app.rulesInitCommand(out: "my rules.json")
                == #"uaaudit rules init --app 'Bob'\''s App' --bundle 'Bob'\''s App Widget Pro' --out 'my rules.json'"#)
    }

    /// Issue 32's review: 4,000 requests of one client outnumber a real app's 1,250 from many.
    @Test func aBurstFromFewClientsDoesNotMakeAnAppTheOperators() {
        let clients: [String: Set<UInt64>] = [
            "Zapper/1.0 (iPhone; iOS 17.4; Scale/3.00)": [9],
            "Vault8/2.0 (iPhone; iOS 17.4)": Set(1...40),
        ]
        let uas = [
            (ua: "Zapper/1.0 (iPhone; iOS 17.4; Scale/3.00)", count: Int64(4000)),
            (ua: "Vault8/2.0 (iPhone; iOS 17.4)", count: Int64(1250)),
        ]
        let detection = AppDetection.detect(uas, clients: clients)
        #expect(detection.candidates.map(\.clients) == [1, 40])
        #expect(detection.dominant == nil)
        // The same requests from as many clients as the app's: the larger one is taken.
        #expect(AppDetection.detect(uas).dominant?.name == "Zapper")
    }

    /// Well-known apps' in-app browsers, and any app seen only as a web view's token, are
    /// listed but never taken without --app: the operator's own app is found beside them.
    @Test func inAppBrowsersAndWebViewTokensAloneAreNotTaken() {
        let instagram =
            "Mozilla/5.0 (iPhone; CPU iPhone OS 16_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Instagram 283.0.0.16.103 (iPhone15,3; iOS 16_5; ru_UZ)"
        let token =
            "Mozilla/5.0 (iPhone; CPU iPhone OS 16_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Quokka/2.1"
        let alone = AppDetection.detect([(ua: instagram, count: 138), (ua: token, count: 50)])
        #expect(alone.candidates.map(\.name) == ["Instagram", "Quokka"])
        #expect(alone.candidates.map(\.eligible) == [false, false])
        #expect(alone.dominant == nil)
        let withApp = AppDetection.detect([
            (ua: instagram, count: 138), (ua: "Vault8/2.0 (iPhone; iOS 17.4)", count: 40),
        ])
        #expect(withApp.dominant?.name == "Vault8")
    }

    @Test func theCountOfCandidatesIsKeptWhenTheListIsCut() {
        let uas = (0..<25).map { (ua: "App\($0)x/1.0 (iPhone; iOS 17)", count: Int64(1)) }
        let detection = AppDetection.detect(uas)
        #expect(detection.candidates.count == 10)
        #expect(detection.found == 25)
    }
}
