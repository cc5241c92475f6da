import Foundation
import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

/// `rules init` rules on hand-picked real UAs of each shape. Sources: "dd" is the fixtures of
/// PyPI's device-detector 6.5.1 (device_detector/tests/fixtures/upstream/*.yml); "apple" is the
/// shape Apple's stacks send by default; "issue" is quoted in issue 16 from fake-useragent's data.
@Suite struct RulesTemplateTests {
    struct Case: Sendable, CustomStringConvertible {
        var app: String
        var token: String? = nil
        var bundles: [String] = []
        var ua: String
        var expected: String
        var source: String
        var description: String { "\(app): \(ua) → \(expected) (\(source))" }
    }

    static let cases: [Case] = [
        // The app's own custom UA (urlsession): dots, underscores, extra parts, iPad, Alamofire.
        Case(
            app: "iHeartRadio", ua: "iHeartRadio/10.25.1 (iPhone; iOS 16.3.1; iPhone12,1)", expected: "urlsession",
            source: "dd"),
        Case(
            app: "LiveJournal", ua: "LiveJournal/4.6.2 (iPad; iOS 12.5.5; Scale/2.00)", expected: "urlsession",
            source: "dd"),
        Case(
            app: "Himalaya", ua: "Himalaya/2.6.32 (iPhone; iOS 16.5.1; Scale/3.00; CFNetwork; iPhone13,4)",
            expected: "urlsession", source: "dd"),
        Case(
            app: "Liulo", ua: "Liulo/1.1.6 (vn.bachminh.podcastvn; build:6; iOS 17.0.0) Alamofire/5.6.4",
            expected: "urlsession", source: "dd"),
        Case(
            app: "WeatherBug Elite", ua: "WeatherBug Elite/5.97.0 (iPhone; iOS 18.1.1; Scale/2.00)",
            expected: "urlsession", source: "issue"),
        Case(
            app: "MyApp", ua: "MyApp/5.12.1 (iPhone; iPhone15,3; Scale/3.00; iOS 17_4)", expected: "urlsession",
            source: "seed"),
        Case(
            app: "Instagram", ua: "Instagram 5.0.2 (iPhone5,1; iPhone OS 7_0_4; en_US; en) AppleWebKit/420+",
            expected: "urlsession", source: "dd"),
        // The OS version elsewhere: WebKit's words without an engine, '(iOS/…)', after the version, after Darwin.
        Case(
            app: "Classic FM", ua: "Classic FM/108.1 (iPhone; CPU iPhone OS 16_3_1 like Mac OS X)",
            expected: "urlsession", source: "dd"),
        Case(app: "LBC", ua: "LBC/98 (iPad; CPU OS 12_5_7 like Mac OS X)", expected: "urlsession", source: "dd"),
        Case(
            app: "Microsoft Office Word",
            ua: "Microsoft Office Word/2.45.106 (iOS/14.2; Tablet; es-MX; AppStore; Apple/iPad8,9)",
            expected: "urlsession", source: "dd"),
        Case(
            app: "Microsoft Office OneNote",
            ua: "Microsoft Office OneNote/16.81/240108 (iOS/17.3.1; Tablet; AppStore; Apple/iPad8,1)",
            expected: "urlsession", source: "dd"),
        Case(app: "Spotify", ua: "Spotify/8.7.70 iOS/16.0 (iPhone14,7)", expected: "urlsession", source: "dd"),
        Case(app: "KKBOX", ua: "KKBOX/7.17.22/iOS/16.4.1", expected: "urlsession", source: "dd"),
        Case(
            app: "TuneIn Radio", ua: "TuneIn Radio/27.1.0; iPad6,3; iPadOS/16.6", expected: "urlsession",
            source: "dd"),
        Case(
            app: "Snipd", ua: "Snipd/2.2.52 CFNetwork/1410.0.3 Darwin/22.6.0 (iPhone iOS/16.6)", expected: "urlsession",
            source: "dd"),
        Case(
            app: "Anghami", ua: "Anghami/6.2.74 CFNetwork/711.1.12 Darwin/14.0.0 iPhone11,6 iOS16.2 v2",
            expected: "urlsession", source: "dd"),
        Case(
            app: "ReutersNews", ua: "ReutersNews/6.0.3 iPad14,4 iPadOS/17.5.1 CFNetwork/1.0 Darwin/23.5.0",
            expected: "urlsession", source: "dd"),
        Case(
            app: "LiSTNR.au.com.podcastoneaustralia",
            ua: "LiSTNR.au.com.podcastoneaustralia/3.24.1 iPhone12,1 iOS/16.5.1 CFNetwork/1408.0.4 Darwin/22.5.0",
            expected: "urlsession", source: "dd"),
        // … but not a Mac's OS version, nor another app whose name starts with the app's.
        Case(
            app: "Microsoft Office Word",
            ua:
                "Microsoft Office Word/16.78.1008 (Mac OS/14.0; Desktop; en-US; NonAppStore; Apple/Mac14,9)",
            expected: "other", source: "dd"),
        Case(
            app: "TuneIn Radio", ua: "TuneIn Radio Pro/27.3.0; iPad6,4; iPadOS/16.7.4", expected: "other",
            source: "dd"),
        // The app's WKWebView: engine first, the app's token after it.
        Case(
            app: "NAVER",
            ua:
                "Mozilla/5.0 (iPhone; CPU iPhone OS 15_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/15.1 Mobile/15E148 Safari/605.1 NAVER(inapp; search; 1000; 11.8.10; 13)",
            expected: "webview", source: "dd"),
        Case(
            app: "KakaoTalk", token: "KAKAOTALK",
            ua:
                "Mozilla/5.0 (iPhone; CPU iPhone OS 13_3 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 KAKAOTALK 8.6.3",
            expected: "webview", source: "dd"),
        Case(
            app: "Instagram",
            ua:
                "Mozilla/5.0 (iPod touch; CPU iPhone OS 10_1_1 like Mac OS X) AppleWebKit/602.2.14 (KHTML, like Gecko) Mobile/14B100 Instagram 46.0.0.14.96 (iPod7,1; iOS 10_1_1; pt_PT; pt-PT; scale=2.00; gamut=normal; 640x1136)",
            expected: "webview", source: "dd"),
        Case(
            app: "Facebook", token: "FBAN/FBIOS",
            ua:
                "Mozilla/5.0 (iPhone; CPU iPhone OS 17_6_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/21G93 [FBAN/FBIOS;FBAV/479.1.0.33.109;FBBV/637241220;FBDV/iPhone15,2;FBMD/iPhone;FBSN/iOS;FBSV/17.6.1;FBSS/3;FBID/phone;FBLC/es_ES;FBOP/5;FBRV/639094949;IABMV/1]",
            expected: "webview", source: "dd"),
        Case(app: "MyApp", ua: LogLines.webview, expected: "webview", source: "seed"),
        Case(
            app: "Snapchat",
            ua:
                "Mozilla/5.0 (iPhone; CPU iPhone OS 13_3 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.0.4 Mobile/15E148 Snapchat/11.9.0.45 (like Safari/604.1)",
            expected: "webview", source: "dd"),
        Case(
            app: "Line",
            ua:
                "Mozilla/5.0 (iPhone; CPU iPhone OS 8_2 like Mac OS X) AppleWebKit/600.1.4 (KHTML, like Gecko) Mobile/12D508 Safari Line/5.9.5",
            expected: "webview", source: "dd"),
        // … only where WKWebView puts it: not inside another app's part, not before more of the engine.
        Case(
            app: "1010",
            ua:
                "Mozilla/5.0 (iPhone; CPU iPhone OS 17_2_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.2 Mobile/15E148 Safari/605.1 NAVER(inapp; search; 1010; 11.17.1; SE3)",
            expected: "other_app", source: "dd"),
        Case(
            app: "News",
            ua:
                "Mozilla/5.0 (iPhone; CPU iPhone OS 10_0 like Mac OS X) AppleWebKit/602.1.50 (KHTML, like Gecko) News/582.1 Version/2.0",
            expected: "other_app", source: "dd"),
        // The app's stacks without its UA (inconsistent): default CFNetwork per bundle name.
        Case(app: "NAVER", ua: "NAVER/10.2.3.1 CFNetwork/976 Darwin/18.2.0", expected: "inconsistent", source: "dd"),
        Case(app: "Snipd", ua: "Snipd/90 CFNetwork/1329 Darwin/21.3.0", expected: "inconsistent", source: "dd"),
        Case(
            app: "KakaoTalk", token: "KAKAOTALK", ua: "KakaoTalk/2023.4.17.1 CFNetwork/1406.0.4 Darwin/22.4.0",
            expected: "inconsistent", source: "dd"),
        Case(
            app: "TuneIn Radio", ua: "TuneIn%20Radio/1383 CFNetwork/1125.2 Darwin/19.4.0", expected: "inconsistent",
            source: "dd"),
        Case(
            app: "NYT Audio", ua: "NYT Audio/1.6.2 CFNetwork/1410.0.2 Darwin/22.6.0", expected: "inconsistent",
            source: "dd"),
        Case(
            app: "ESPN", ua: "ESPN Watch Extension/6396 CFNetwork/1333.0.4 Darwin/21.5.0", expected: "inconsistent",
            source: "dd"),
        // Extensions, widgets and watch apps of the app's bundle name, in any case ("issue": quoted in issue 32).
        Case(
            app: "UPSMobile", ua: "UPSMobile.WidgetsExtension/1 CFNetwork/1496.0.7 Darwin/23.5.0",
            expected: "inconsistent", source: "issue"),
        Case(
            app: "WeatherBug", ua: "WeatherbugWidgetExtension/5970 CFNetwork/1568.200.51 Darwin/24.1.0",
            expected: "inconsistent", source: "issue"),
        Case(
            app: "MyApp", ua: "MyApp Watch App/1 CFNetwork/1568.100.1 Darwin/24.0.0", expected: "inconsistent",
            source: "issue"),
        Case(
            app: "WhatsApp", ua: "WhatsApp Business/2.23.20.76 CFNetwork/1474 Darwin/23.0.0", expected: "other_app",
            source: "made up"),
        // Another app that merely starts with the name and ends in an extension word (issue 32's
        // review): only extension words may follow the name.
        Case(
            app: "Shop", ua: "Shopify%20Widget/412 CFNetwork/1494.0.7 Darwin/23.4.0", expected: "other_app",
            source: "review"),
        Case(
            app: "Shop", ua: "ShopKeeperWidgetExtension/1 CFNetwork/1494.0.7 Darwin/23.4.0", expected: "other_app",
            source: "review"),
        Case(
            app: "Shop", ua: "Shop Pro Widget/1 CFNetwork/1494.0.7 Darwin/23.4.0", expected: "other_app",
            source: "review"),
        Case(
            app: "Vault8", ua: "Vault8 AutoFill/77 CFNetwork/1494.0.7 Darwin/23.4.0", expected: "inconsistent",
            source: "review"),
        Case(
            app: "Vault8", ua: "Vault8%20Notification%20Service/77 CFNetwork/1494.0.7 Darwin/23.4.0",
            expected: "inconsistent", source: "review"),
        Case(
            app: "Podcasts", bundles: ["ActionExtension"], ua: "ActionExtension/5328 CFNetwork/1404.0.5 Darwin/22.3.0",
            expected: "inconsistent", source: "dd"),
        Case(
            app: "MyApp",
            ua: "Mozilla/5.0 (iPad; CPU OS 17_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148",
            expected: "inconsistent", source: "apple"),
        // Everybody else: never the alert class.
        Case(app: "MyApp", ua: "NAVER/10.2.3.1 CFNetwork/976 Darwin/18.2.0", expected: "other_app", source: "dd"),
        Case(app: "MyApp", ua: "Mail/3731.600.7 CFNetwork/1408.0.4 Darwin/22.5.0", expected: "other_app", source: "dd"),
        Case(
            app: "Reeder", ua: "Reeder/1020.09.00 CFNetwork/596.3.3 Darwin/12.3.0 (x86_64) (iMac9%2C1)",
            expected: "other_app", source: "dd"),
        Case(
            app: "ESPN", ua: "ESPN Business/1 CFNetwork/1333.0.4 Darwin/21.5.0", expected: "other_app",
            source: "made up"),
        Case(
            app: "MyApp",
            ua:
                "Mozilla/5.0 (iPhone; CPU iPhone OS 16_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Instagram 283.0.0.16.103 (iPhone15,3; iOS 16_5; ru_UZ; ru-UZ; scale=3.00; 1290x2796; 474411477)",
            expected: "other_app", source: "dd"),
        Case(
            app: "MyApp",
            ua:
                "Mozilla/5.0 (iPhone; CPU iPhone OS 7_0_4 like Mac OS X) AppleWebKit/537.51.1 (KHTML, like Gecko) Version/7.0 Mobile/11B554a Safari/9537.53",
            expected: "browser", source: "dd"),
        Case(
            app: "MyApp",
            ua:
                "Mozilla/5.0 (iPad; CPU OS 6_0_1 like Mac OS X) AppleWebKit/536.26 (KHTML, like Gecko) CriOS/31.0.1650.18 Mobile/10A523 Safari/8536.25",
            expected: "browser", source: "dd"),
        Case(
            app: "MyApp",
            ua:
                "Mozilla/5.0 (iPhone; CPU iPhone OS 6_0 like Mac OS X) AppleWebKit/536.26 (KHTML, like Gecko) Version/6.0 Mobile/10A5376e Safari/8536.25 (compatible; Googlebot-Mobile/2.1; +http://www.google.com/bot.html)",
            expected: "bot", source: "dd"),
        Case(
            app: "MyApp",
            ua:
                "Mozilla/5.0 (iPhone; CPU iPhone OS 9_1 like Mac OS X) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/44.0.2403.155 Mobile Safari/537.36",
            expected: "spoofed", source: "issue"),
        Case(
            app: "MyApp",
            ua: "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko)",
            expected: "ambiguous", source: "apple"),
        Case(
            app: "MyApp",
            ua:
                "Mozilla/5.0 (iPhone; U; CPU iPhone OS 4_2_1 like Mac OS X; ar) AppleWebKit/533.17.9 (KHTML, like Gecko) Mobile/8C148",
            expected: "other", source: "dd"),
    ]

    static func rules(_ c: Case) throws -> RuleSet {
        try RulesTemplate(app: c.app, bundles: c.bundles, webviewToken: c.token).file().compile(path: "init")
    }

    @Test(arguments: cases)
    func classifiesRealUAs(_ c: Case) throws {
        #expect(Classifier(rules: try Self.rules(c)).explain(Array(c.ua.utf8)).className == c.expected)
    }

    @Test(arguments: ["MyApp", "WeatherBug Elite", "NAVER", "C++ App (beta)", "Mail"])
    func writtenFilesPassTheirExamplesAndLintClean(app: String) throws {
        let file = try RulesTemplate(app: app, bundles: ["\(app) Widget"]).file()
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let rules = try RulesFile.parse(Array(try encoder.encode(file)), path: "init.json")
        #expect(rules.app == app)
        #expect(rules.alertClass == "inconsistent")
        #expect(
            rules.rules.map(\.name)
                == ["webview", "urlsession", "inconsistent", "ambiguous", "bot", "spoofed", "browser", "other_app"])
        #expect(RulesLint.findings(rules) == [])
        // Every class gets examples.
        for rule in rules.rules { #expect(rules.examples.contains { $0.className == rule.name }, "\(rule.name)") }
    }

    @Test func namesWithASlashOrControlCharactersAreRefused() {
        #expect(throws: RulesTemplateError(option: "--app", value: "My/App")) { try RulesTemplate(app: "My/App") }
        #expect(throws: RulesTemplateError(option: "--bundle", value: "")) {
            try RulesTemplate(app: "MyApp", bundles: [""])
        }
        #expect(throws: RulesTemplateError(option: "--webview-token", value: "a\u{1B}b")) {
            try RulesTemplate(app: "MyApp", webviewToken: "a\u{1B}b")
        }
    }

    @Test func regexCharactersInNamesAreLiteral() throws {
        let rules = try RulesTemplate(app: "C++ App (beta)").file().compile(path: "init")
        let classifier = Classifier(rules: rules)
        #expect(
            classifier.explain(Array("C++ App (beta)/3 CFNetwork/1494.0.7 Darwin/23.4.0".utf8)).className
                == "inconsistent")
        #expect(
            classifier.explain(Array("CCC App (beta)/3 CFNetwork/1494.0.7 Darwin/23.4.0".utf8)).className == "other_app"
        )
    }

    /// A name that browsers, bots or every default CFNetwork UA carry would make the app's
    /// classes take their traffic (`--app Version` put Mobile Safari in `webview`): refused.
    @Test(arguments: ["Version", "Safari", "iPhone", "CFNetwork", "Darwin", "a", "Bot", "Gecko", "Mobile"])
    func namesOtherSoftwareCarriesAreRefused(app: String) {
        #expect(throws: RulesTemplateError.self) { try RulesTemplate(app: app) }
        #expect(throws: RulesTemplateError.self) { try RulesTemplate(app: "MyApp", bundles: [app]) }
    }

    @Test(arguments: [" ", "x y ", " MyApp"])
    func namesWithOuterSpacesAreRefused(app: String) {
        #expect(throws: RulesTemplateError(option: "--app", value: app)) { try RulesTemplate(app: app) }
    }

    /// Long runs of what the patterns repeat (engine products, version parts) are classed, not
    /// abandoned: the repeats are possessive, so PCRE2's JIT stack does not fill with backtracking points.
    /// Only a UA's first 8 KiB is matched: the token after 2,000 products is past it.
    @Test func longRepeatsStayWithinPCRE2sLimits() throws {
        let classifier = Classifier(rules: try RulesTemplate(app: "MyApp").file().compile(path: "init"))
        let engine = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko)"
        let cases = [
            (engine + String(repeating: " Version/1.2 Mobile", count: 420) + " MyApp/1", "webview"),
            (engine + String(repeating: " Version/1.2 Mobile", count: 2_000) + " MyApp/1", "other_app"),
            ("MyApp/1 (iPhone; iOS 1" + String(repeating: ".1", count: 5_000) + ")", "urlsession"),
        ]
        for (ua, expected) in cases {
            #expect(classifier.explain(Array(ua.utf8)).className == expected, "\(ua.prefix(60))")
        }
    }

    /// A non-ASCII bundle name may come percent-encoded in the default UA, as a space comes as `%20`.
    @Test func nonASCIIBundleNamesMatchAsThemselvesAndPercentEncoded() throws {
        let classifier = Classifier(rules: try RulesTemplate(app: "Café").file().compile(path: "init"))
        for ua in ["Café/1 CFNetwork/1494.0.7 Darwin/23.4.0", "Caf%C3%A9/1 CFNetwork/1494.0.7 Darwin/23.4.0"] {
            #expect(classifier.explain(Array(ua.utf8)).className == "inconsistent", "\(ua)")
        }
        #expect(classifier.explain(Array("Cafe/1 CFNetwork/1494.0.7 Darwin/23.4.0".utf8)).className == "other_app")
    }
}
