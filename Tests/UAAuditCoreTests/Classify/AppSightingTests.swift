import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

/// The shapes of an iOS app's UAs read without rules. "dd": device-detector 6.5.1's fixtures;
/// "apple": Apple's default shapes; "issue": quoted in issue 32.
@Suite struct AppSightingTests {
    struct Case: Sendable, CustomStringConvertible {
        var ua: String
        var name: String?
        var app: String?
        var shape: AppSighting.Shape?
        var description: String { ua }
    }

    static let cases: [Case] = [
        Case(ua: "MyShop/3.2.1 (iPhone; iOS 17.4; Scale/3.00)", name: "MyShop", app: "MyShop", shape: .custom),
        Case(
            ua: "MyShop/1 CFNetwork/1494.0.7 Darwin/23.4.0", name: "MyShop", app: "MyShop", shape: .cfnetworkDefault),
        Case(
            ua: "TuneIn%20Radio/1383 CFNetwork/1125.2 Darwin/19.4.0", name: "TuneIn Radio", app: "TuneIn Radio",
            shape: .cfnetworkDefault),
        Case(
            ua: "ESPN Watch Extension/6396 CFNetwork/1333.0.4 Darwin/21.5.0", name: "ESPN Watch Extension", app: "ESPN",
            shape: .cfnetworkDefault),
        Case(
            ua: "UPSMobile.WidgetsExtension/1 CFNetwork/1410.0.3 Darwin/22.6.0", name: "UPSMobile.WidgetsExtension",
            app: "UPSMobile", shape: .cfnetworkDefault),
        Case(
            ua: "WeatherbugWidgetExtension/5 CFNetwork/1410.0.3 Darwin/22.6.0", name: "WeatherbugWidgetExtension",
            app: "Weatherbug", shape: .cfnetworkDefault),
        Case(
            ua: "MyApp Watch App/1 CFNetwork/1474 Darwin/23.0.0", name: "MyApp Watch App", app: "MyApp",
            shape: .cfnetworkDefault),
        Case(
            ua: "Snipd/2.2.52 CFNetwork/1410.0.3 Darwin/22.6.0 (iPhone iOS/16.6)", name: "Snipd", app: "Snipd",
            shape: .cfnetworkCustom),
        Case(
            ua: "Liulo/1.1.6 (vn.bachminh.podcastvn; build:6; iOS 17.0.0) Alamofire/5.6.4", name: "Liulo", app: "Liulo",
            shape: .alamofire),
        Case(
            ua: "Podimo/108.1 (iPhone; CPU iPhone OS 16_3_1 like Mac OS X)", name: "Podimo", app: "Podimo",
            shape: .custom),
        Case(
            ua: "Microsoft Office Word/2.43.20112900 (iOS/14.2; Tablet; en-US; AppStore; Apple/iPad8,9)",
            name: "Microsoft Office Word", app: "Microsoft Office Word", shape: .custom),
        Case(
            ua:
                "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 MyShop/3.2.1",
            name: "MyShop", app: "MyShop", shape: .webview),
        Case(
            ua:
                "Mozilla/5.0 (iPhone; CPU iPhone OS 13_3 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 KAKAOTALK 8.6.3",
            name: "KAKAOTALK", app: "KAKAOTALK", shape: .webview),
        Case(
            ua:
                "Mozilla/5.0 (iPhone; CPU iPhone OS 15_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/15.1 Mobile/15E148 Safari/605.1 NAVER(inapp; search; 1000; 11.8.10; 13)",
            name: "NAVER", app: "NAVER", shape: .webview),
        Case(
            ua:
                "MyApp/5.12.1 (iPhone; iOS 17.4.1) Mozilla/5.0 (iPhone; CPU iPhone OS 17_4_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148",
            name: "MyApp", app: "MyApp", shape: .webview),
        Case(
            ua: "Vault8 AutoFill/77 CFNetwork/1494.0.7 Darwin/23.4.0", name: "Vault8 AutoFill", app: "Vault8",
            shape: .cfnetworkDefault),
        Case(
            ua: "Vault8%20Notification%20Service/77 CFNetwork/1494.0.7 Darwin/23.4.0",
            name: "Vault8 Notification Service", app: "Vault8", shape: .cfnetworkDefault),
        // A name like a browser's word is still an app's (rules init then says why it refuses it).
        Case(ua: "Mobile/2.0 (iPhone; iOS 17.4)", name: "Mobile", app: "Mobile", shape: .custom),
        // Families, as reports write them: digits as '#'.
        Case(ua: "MyShop/# CFNetwork/#.#.# Darwin/#.#.#", name: "MyShop", app: "MyShop", shape: .cfnetworkDefault),
        Case(ua: "MyShop/#.#.# (iPhone; iOS #.#; Scale/#.##)", name: "MyShop", app: "MyShop", shape: .custom),
        // Not an app's: browsers, a default web view, bots, tools, other platforms, an SDK token.
        Case(
            ua:
                "Mozilla/5.0 (iPhone; CPU iPhone OS 17_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.2 Mobile/15E148 Safari/604.1"
        ),
        Case(
            ua:
                "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148"
        ),
        Case(
            ua:
                "Mozilla/5.0 (iPad; CPU OS 7_0 like Mac OS X) AppleWebKit/537.51.1 (KHTML, like Gecko) CriOS/32.0.1700.20 Mobile/11A465 Safari/9537.53"
        ),
        Case(ua: "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"),
        Case(ua: "curl/8.4.0"),
        Case(ua: "okhttp/4.9.0"),
        Case(ua: "Dalvik/2.1.0 (Linux; U; Android 13; Pixel 7)"),
        Case(ua: "MyShop/3.2.1 (Android 13; Pixel 7)"),
        Case(ua: "YourSDK/1.0 com.apple.CFNetwork/1494.0.7"),
        Case(ua: "MyShop/3.2.1"),
        // A version is no name (smzdm's in-app browser writes one after the engine).
        Case(
            ua:
                "Mozilla/5.0 (iPhone; CPU iPhone OS 16_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 10.6.20 rv:139"
        ),
        Case(ua: "x (iPhone) /1"),
        Case(ua: ""),
    ]

    @Test(arguments: cases) func readsTheShape(_ c: Case) {
        let sighting = AppSighting.read(c.ua)
        #expect(sighting?.name == c.name)
        #expect(sighting?.app == c.app)
        #expect(sighting?.shape == c.shape)
    }

    @Test func aLongUAIsReadOnlyAsFarAsItsShapeNeeds() {
        let long = "MyShop/3.2.1 (iPhone; iOS 17.4; " + String(repeating: "x", count: 100_000) + ")"
        // The parenthesis does not close within the bytes read: not a sighting.
        #expect(AppSighting.read(long) == nil)
        let webview =
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 "
            + String(repeating: "A", count: 100_000)
        #expect(AppSighting.read(webview) == nil)
    }
}
