import Foundation
import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

@Suite struct UAAnatomyTests {
    typealias A = UAAnatomy

    static let iPhoneWebView =
        "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148"
    static let iPadWebView =
        "Mozilla/5.0 (iPad; CPU OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148"
    static let safari =
        "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1"

    /// (UA, app, webview token, the anatomy expected).
    static let cases: [(ua: String, app: String?, token: String?, expected: A)] = [
        // CFNetwork defaults: the app's, a percent-encoded name, extensions, another app's.
        (
            "MyShop/1234 CFNetwork/1494.0.7 Darwin/23.4.0", "MyShop", nil,
            A(stack: .urlsessionDefault, bundle: "MyShop", ios: "17.4", iosFromDarwinOnly: true)
        ),
        (
            "MyShop/1234 CFNetwork/1494.0.7 Darwin/23.4.0", nil, nil,
            A(stack: .urlsessionDefault, bundle: "MyShop", ios: "17.4", iosFromDarwinOnly: true)
        ),
        (
            "My%20Shop/87 CFNetwork/1568.100.1 Darwin/24.1.0", "My Shop", nil,
            A(stack: .urlsessionDefault, bundle: "My Shop", ios: "18.1", iosFromDarwinOnly: true)
        ),
        (
            "MyShopWidgetExtension/1234 CFNetwork/1496.0.7 Darwin/23.5.0", "MyShop", nil,
            A(
                stack: .urlsessionDefault, bundle: "MyShopWidgetExtension", bundleIsExtension: true, ios: "17.5",
                iosFromDarwinOnly: true)
        ),
        (
            "MyShop Notification Service Extension/1234 CFNetwork/1410.0.3 Darwin/22.6.0", "MyShop", nil,
            A(
                stack: .urlsessionDefault, bundle: "MyShop Notification Service Extension", bundleIsExtension: true,
                ios: "16.6", iosFromDarwinOnly: true)
        ),
        (
            "MyShop%20Notification%20Service%20Extension/1234 CFNetwork/3826.400.120 Darwin/25.0.0", "MyShop", nil,
            A(
                stack: .urlsessionDefault, bundle: "MyShop Notification Service Extension", bundleIsExtension: true,
                ios: "26.0", iosFromDarwinOnly: true)
        ),
        (
            "Slack/396839 CFNetwork/889.9 Darwin/17.2.0", "MyShop", nil,
            A(stack: .urlsessionDefault, bundle: "Slack")
        ),
        // WKWebViews: without a token (iPhone, iPad, an old `U;` one), with the app's token, another app's.
        (iPhoneWebView, "MyShop", nil, A(stack: .wkwebviewWithoutToken, ios: "17.4")),
        (iPadWebView, "MyShop", nil, A(stack: .wkwebviewWithoutToken, ios: "17.4")),
        (iPadWebView, nil, nil, A(stack: .wkwebviewWithoutToken, ios: "17.4")),
        (
            "Mozilla/5.0 (iPhone; U; CPU iPhone OS 4_3_3 like Mac OS X; ar) AppleWebKit/533.17.9 (KHTML, like Gecko) Mobile/8J2",
            nil, nil, A(stack: .wkwebviewWithoutToken, ios: "4.3")
        ),
        (iPhoneWebView + " MyShop/3.3.0", "MyShop", nil, A(ios: "17.4", appVersion: "3.3.0")),
        (iPadWebView + " MyShop/3.3.0", nil, nil, A(ios: "17.4", appVersion: "3.3.0")),
        (iPhoneWebView + " KAKAOTALK 8.6.3", "KakaoTalk", "KAKAOTALK", A(ios: "17.4")),
        (iPhoneWebView + " [FBAN/FBIOS;FBAV/479.1.0.33.109]", "MyShop", "FBAN/FBIOS", A(ios: "17.4")),
        (
            "Mozilla/5.0 (iPhone; CPU iPhone OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/20G75 Instagram 296.0.0.18.107 (iPhone14,8; iOS 16_6; en_US)",
            "MyShop", nil, A(ios: "16.6")
        ),
        // Safari, and SFSafariViewController (the same UA, and its process's CFNetwork default).
        (safari, "MyShop", nil, A(stack: .safari, ios: "17.4")),
        (
            "Mozilla/5.0 (iPad; CPU OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.6 Mobile/15E148 Safari/604.1",
            "MyShop", nil, A(stack: .safari, ios: "16.6")
        ),
        (
            "SafariViewService/8614.1.25.0.31 CFNetwork/1390 Darwin/22.0.0", "MyShop", nil,
            A(stack: .safari, ios: "16.0", iosFromDarwinOnly: true)
        ),
        (safari + " MyShop/3.3.0", "MyShop", nil, A(ios: "17.4", appVersion: "3.3.0")),
        (
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/122.0.6261.89 Mobile/15E148 Safari/604.1",
            "MyShop", nil, A(ios: "17.4")
        ),
        // SDKs: Alamofire's default (with and without the app named), Facebook's, Google's ads, Matomo's.
        (
            "MyShop/3.3.0 (com.example.shop; build:6; iOS 17.0.0) Alamofire/5.6.4", nil, nil,
            A(stack: .sdk, sdk: "Alamofire", ios: "17.0", appVersion: "3.3.0")
        ),
        (
            "MyShop/3.3.0 (com.example.shop; build:6; iOS 17.0.0) Alamofire/5.6.4", "MyShop", nil,
            A(stack: .sdk, sdk: "Alamofire", ios: "17.0", appVersion: "3.3.0")
        ),
        ("FBiOSSDK.17.0.0", "MyShop", nil, A(stack: .sdk, sdk: "FBiOSSDK")),
        ("FBiOSSDK.17.0.0/macOS", nil, nil, A(stack: .sdk, sdk: "FBiOSSDK")),
        (
            iPhoneWebView + " (Mobile; afma-sdk-i-v11.2.0.0)", "MyShop", nil,
            A(stack: .sdk, sdk: "afma-sdk-i", ios: "17.4")
        ),
        (
            "Darwin/23.4.0 (iPhone15,2; iOS 17.4) MatomoTrackerSDK/7.8.0 MyShop/3.2.1", "MyShop", nil,
            A(stack: .sdk, sdk: "MatomoTrackerSDK", ios: "17.4", appVersion: "3.2.1")
        ),
        // The app's own UAs are none of the stacks without its UA.
        ("MyShop/3.2.1 (iPhone; iOS 17.4; Scale/3.00)", "MyShop", nil, A(ios: "17.4", appVersion: "3.2.1")),
        ("MyShop/3.2.1 (iPhone; iOS 17.4; Scale/3.00)", nil, nil, A(ios: "17.4", appVersion: "3.2.1")),
        (
            "Snipd/2.2.52 CFNetwork/1410.0.3 Darwin/22.6.0 (iPhone iOS/16.6)", "Snipd", nil,
            A(ios: "16.6", appVersion: "2.2.52")
        ),
        (
            "ReutersNews/6.0.3 iPad14,4 iPadOS/17.5.1 CFNetwork/1.0 Darwin/23.5.0", "ReutersNews", nil,
            A(ios: "17.5", appVersion: "6.0.3")
        ),
        (
            "Laughable iOS/3.1 (com.bywayEndeavors.Laughable; build:3.1.0.3; iOS 16.3.1) Alamofire/4.8.2", nil, nil,
            A(stack: .sdk, sdk: "Alamofire", ios: "16.3", appVersion: "3.1")
        ),
        // "iOS" before a number below 4 is an app's version ('iOS' was 'iPhone OS' until 4.0).
        ("PodMN/iOS 1.1.11 (iPhone/16.5.1)", nil, nil, A()),
        ("Laughable iOS/3.1 (com.bywayEndeavors.Laughable; build:3.1.0.3)", nil, nil, A()),
        ("Instagram 5.0.2 (iPhone5,1; iPhone OS 7_0_4; en_US; en) AppleWebKit/420+", nil, nil, A(ios: "7.0")),
        // Darwin alone, with and without a device named.
        ("MyShop/5 CFNetwork/1494.0.7 Darwin/23.4.0 iPhone15,2", "MyShop", nil, A(ios: "17.4", appVersion: "5")),
        (
            "myTuneriOS%20Free/120 CFNetwork/1402.0.8 Darwin/22.2.0", nil, nil,
            A(
                stack: .urlsessionDefault, bundle: "myTuneriOS Free", ios: "16.2", iosFromDarwinOnly: true)
        ),
        // Not iOS.
        (
            "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/122.0.6261.90 Mobile Safari/537.36",
            "MyShop", nil, A()
        ),
        (
            "Mozilla/5.0 (Linux; Android 10; M2003J15SC Build/QP1A.190711.020; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/83.0.4103.106 Mobile Safari/537.36 (Mobile; afma-sdk-a-v201004999.201004000.0)",
            "MyShop", nil, A()
        ),
        (
            "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/122.0.0.0 Safari/537.36",
            "MyShop", nil, A()
        ),
        (
            "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15",
            "MyShop", nil, A()
        ),
        ("okhttp/4.12.0", "MyShop", nil, A()),
        ("", "MyShop", nil, A()),
        ("", nil, nil, A()),
        ("-", "", "", A()),
    ]

    @Test func eachShapeGivesItsAnatomy() {
        for (ua, app, token, expected) in Self.cases {
            #expect(A.read(ua, app: app, webviewToken: token) == expected, "\(ua) app: \(app ?? "nil")")
        }
    }

    @Test(
        arguments: [
            // With the app: the version after its first product, wherever the product is.
            ("MyShop/3.3.0 (iPhone; iOS 17.4; Scale/3.00)", "MyShop", "3.3.0"),
            (
                "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 MyShop/3.3.0",
                "MyShop", "3.3.0"
            ),
            ("MyShop/3.3.0 (com.x; build:6; iOS 17.0.0) Alamofire/5.6.4", "MyShop", "3.3.0"),
            ("Darwin/23.4.0 (iPhone15,2; iOS 17.4) MatomoTrackerSDK/7.8.0 MyShop/3.2.1", "MyShop", "3.2.1"),
            ("MyShop/3.2.1-beta_2;x", "MyShop", "3.2.1-beta_2"),
            ("MyShop/1 MyShop/2", "MyShop", "1"),
            ("NotMyShop/1.0 (iPhone; iOS 17.4)", "MyShop", nil),
            ("MyShop/v3.2 (iPhone; iOS 17.4)", "MyShop", nil),
            ("MyShop/beta (iPhone; iOS 17.4)", "MyShop", nil),
            ("MyShop/123456789012345678901234567890123 (iPhone; iOS 17.4)", "MyShop", nil),
            (
                "MyShop/12345678901234567890123456789012 (iPhone; iOS 17.4)", "MyShop",
                "12345678901234567890123456789012"
            ),
            ("MyShop 3.3.0 (iPhone; iOS 17.4)", "MyShop", nil),
            ("MyShop/", "MyShop", nil),
            // A CFNetwork default's number is the build.
            ("MyShop/1234 CFNetwork/1494.0.7 Darwin/23.4.0", "MyShop", nil),
            ("MyShop/3.3.0 CFNetwork/1494.0.7 Darwin/23.4.0", "MyShop", nil),
            ("MyShop/1234 CFNetwork/1494.0.7 Darwin/23.4.0", nil, nil),
            // Without the app: the version of the name AppSighting finds.
            ("MyShop/3.2.1 (iPhone; iOS 17.4; Scale/3.00)", nil, "3.2.1"),
            (
                "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 MyShop/3.3.0",
                nil, "3.3.0"
            ),
            ("MyShop/3.3.0 (com.x; build:6; iOS 17.0.0) Alamofire/5.6.4", nil, "3.3.0"),
            ("Snipd/2.2.52 CFNetwork/1410.0.3 Darwin/22.6.0 (iPhone iOS/16.6)", nil, "2.2.52"),
            ("My%20Shop/3.2.1 (iPhone; iOS 17.4)", nil, "3.2.1"),
            (
                "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1",
                nil, nil
            ),
            (
                "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/122.0 Mobile Safari/537.36",
                nil, nil
            ),
            ("curl/8.5.0", nil, nil),
            ("", nil, nil),
        ] as [(String, String?, String?)])
    func appVersionIsTheVersionAfterTheAppsProduct(ua: String, app: String?, version: String?) {
        #expect(A.appVersion(ua, app: app) == version)
    }

    // MARK: Hostile input

    /// A deterministic byte stream (SplitMix64), so a failure replays.
    struct Bytes {
        var state: UInt64
        mutating func next() -> UInt8 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return UInt8(truncatingIfNeeded: z ^ (z >> 31))
        }
    }

    @Test func tenKilobytesOfGarbageReadAsNothing() {
        var random = Bytes(state: 37)
        let garbage = String(decoding: (0..<10_240).map { _ in random.next() }, as: UTF8.self)
        #expect(A.read(garbage, app: "MyShop") == A())
        #expect(A.read(garbage, app: nil, webviewToken: "X") == A())
        #expect(A.appVersion(garbage, app: "MyShop") == nil)
        // A real shape padded to 10 KB: only the first 512 bytes are read, and they end in junk.
        #expect(
            A.read(Self.iPhoneWebView + " " + String(repeating: "A", count: 10_240), app: "MyShop") == A(ios: "17.4"))
        #expect(
            A.read(String(repeating: "CPU iPhone OS 17_", count: 700), app: "MyShop")
                == A(ios: "17.0"))
    }

    /// Anything at all: no trap, the fields agree with the stack, and bytes past 512 change nothing.
    @Test func anyBytesGiveAConsistentAnatomyFromTheFirst512() {
        let pieces = [
            "Mozilla/5.0 (iPhone; ", "CPU iPhone OS 17_4 like Mac OS X) ", "AppleWebKit/605.1.15",
            " (KHTML, like Gecko)",
            " Mobile/15E148", " Safari/604.1", " Version/17.4", "MyShop/", "3.2.1", " CFNetwork/1494.0.7",
            " Darwin/23.4.0", "Darwin/", "%20", " ", "/", "(", ")", ";", "_", ".", "9", "\u{0}", "\u{FF}", "é",
            "Alamofire/5", "FBiOSSDK.1", "afma-sdk-i-v1", "iOS", "iOS/", "iPadOS 1", "Safari/1",
        ]
        var random = Bytes(state: 512)
        for _ in 0..<3_000 {
            var ua = ""
            for _ in 0..<Int(random.next() % 40) { ua += pieces[Int(random.next()) % pieces.count] }
            let anatomy = A.read(ua, app: "MyShop")
            #expect((anatomy.bundle != nil) == (anatomy.stack == .urlsessionDefault), "\(ua)")
            #expect((anatomy.sdk != nil) == (anatomy.stack == .sdk), "\(ua)")
            #expect(!anatomy.bundleIsExtension || anatomy.bundle != nil, "\(ua)")
            #expect(!anatomy.iosFromDarwinOnly || anatomy.ios != nil, "\(ua)")
            if ua.utf8.count > 600, ua.utf8.prefix(600).allSatisfy({ $0 < 0x80 }) {
                let first = String(decoding: ua.utf8.prefix(A.maxBytes), as: UTF8.self)
                #expect(A.read(first, app: "MyShop") == anatomy, "\(ua)")
            }
        }
    }

    // MARK: The real-UA corpus

    /// device-detector's fixtures (`RealCorpusTests`' corpus) with their OS label.
    static func corpus() throws -> [(group: String, os: String, ua: String)] {
        guard RealCorpusTests.present else {
            Issue.record(
                "UAAUDIT_REQUIRE_SERVERS=1 but \(RealCorpusTests.path) is absent: run scripts/real-ua-corpus.py")
            return []
        }
        let text = try String(contentsOfFile: RealCorpusTests.path, encoding: .utf8)
        return text.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: "\t", maxSplits: 4, omittingEmptySubsequences: false)
            return fields.count == 5 ? (String(fields[0]), String(fields[3]), String(fields[4])) : nil
        }
    }

    /// The stacks of the corpus's iOS groups, read without an app (each UA checked by eye in
    /// samples when these were pinned): every bare CFNetwork default is one, Safari's own
    /// processes are Safari, Alamofire's defaults are the SDK's, every in-app browser and app UA
    /// is none of the stacks, and only old `Mobile/…` UAs without `Safari/` are web views.
    static let corpusStacks: [String: [A.Stack: Int]] = [
        "cfnetwork-ios": [.urlsessionDefault: 206, .safari: 2, .unknown: 6],
        "ios-app-own-ua": [.sdk: 8, .unknown: 171],
        "ios-chrome-firefox-edge": [.unknown: 3],
        "ios-in-app-browser": [.unknown: 180],
        "ios-mobile-safari": [.safari: 5],
        "ios-mobile-safari-label-other-shape": [.wkwebviewWithoutToken: 7, .unknown: 38],
        "ios-other-browser": [.unknown: 16],
        "ios-other-mozilla": [.unknown: 30],
    ]

    @Test(.enabled(if: RealCorpusTests.present || RealCorpusTests.required, "the real-UA corpus is absent"))
    func theCorpusIOSGroupsReadAsTheirStacksAndEveryDarwinInTheTableGivesIOS() throws {
        let rows = try Self.corpus()
        guard !rows.isEmpty else { return }
        var stacks: [String: [A.Stack: Int]] = [:]
        var darwinInTable = 0
        var darwinBefore12 = 0
        var darwinBefore12WithIOS = 0
        for row in rows {
            let anatomy = A.read(row.ua, app: nil)
            if Self.corpusStacks[row.group] != nil { stacks[row.group, default: [:]][anatomy.stack, default: 0] += 1 }
            guard row.os == "iOS" || row.os == "iPadOS", let darwin = row.ua.firstRange(of: "Darwin/") else {
                continue
            }
            let version = row.ua[darwin.upperBound...].prefix { $0.isNumber || $0 == "." }
            if DarwinTable.ios(darwin: String(version)) != nil {
                darwinInTable += 1
                #expect(anatomy.ios != nil, "\(row.ua)")
            } else {
                // Darwin 10 to 17 (iOS 4 to 11) are older than the table; a version token may still name iOS.
                darwinBefore12 += 1
                if anatomy.ios != nil { darwinBefore12WithIOS += 1 }
            }
        }
        #expect(stacks == Self.corpusStacks)
        #expect(darwinInTable == 176 && darwinBefore12 == 36 && darwinBefore12WithIOS == 2)
    }
}
