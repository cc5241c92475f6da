/// What one User-Agent says about the code that sent it: which iOS stack, which bundle or SDK,
/// which iOS release and which version of the app.
///
/// An `inconsistent` UA is a symptom; the engineer who has to fix it needs the cause in their
/// own terms: "a URLSession in the widget extension, iOS 17.4, since 3.2.0". This reads those
/// facts from the UA's text alone, with no rules, so that a report can say them for any UA.
///
/// Hostile input: only the first ``maxBytes`` bytes are read, by plain byte scanning (no regex,
/// no backtracking), so any UA costs at most a few passes over 512 bytes, and no byte sequence
/// can make it trap.
package struct UAAnatomy: Equatable, Sendable {
    /// The iOS networking stack a UA's shape belongs to.
    package enum Stack: String, Codable, Sendable, CaseIterable {
        /// CFNetwork's default, `<Bundle>/<build> CFNetwork/<v> Darwin/<v>` and nothing after it:
        /// a URLSession (or NSURLConnection) whose requests carry no User-Agent of the app's.
        case urlsessionDefault = "urlsession_default"
        /// WebKit's UA as a WKWebView sends it by default, `Mozilla/5.0 (iPhone; CPU iPhone OS
        /// 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148`: Mobile
        /// Safari's shape without `Safari/` and without any token after the engine's.
        case wkwebviewWithoutToken = "wkwebview_without_token"
        /// Mobile Safari itself (`Version/… Mobile/… Safari/…` and nothing after), which
        /// SFSafariViewController sends too, and the CFNetwork defaults of Safari's own processes.
        case safari
        /// A third-party SDK's own UA, named by its product token (``UAAnatomy/sdks``).
        case sdk
        /// None of the above: another app's, the app's own, a browser, or not iOS.
        case unknown
    }

    var stack: Stack
    /// For a CFNetwork default: the bundle name, percent-decoded (`My%20Shop` is `My Shop`).
    var bundle: String?
    /// The bundle is an extension's, widget's or watch app's (`MyShopWidgetExtension`), which
    /// runs in its own process with its own URLSession.
    var bundleIsExtension: Bool
    /// For ``Stack/sdk``: the SDK's product name as the UA writes it.
    var sdk: String?
    /// The iOS version, major.minor ("17.4"; "17.0" when the UA writes only "17").
    var ios: String?
    /// The iOS version came only from `Darwin/x.y`, and the UA names no iPhone, iPad, iPod or iOS:
    /// Darwin alone cannot tell iOS from macOS, so the version is a guess.
    var iosFromDarwinOnly: Bool
    /// The app's version, when the UA is one of the app's own (``appVersion(_:app:)``).
    var appVersion: String?

    init(
        stack: Stack = .unknown, bundle: String? = nil, bundleIsExtension: Bool = false, sdk: String? = nil,
        ios: String? = nil, iosFromDarwinOnly: Bool = false, appVersion: String? = nil
    ) {
        self.stack = stack
        self.bundle = bundle
        self.bundleIsExtension = bundleIsExtension
        self.sdk = sdk
        self.ios = ios
        self.iosFromDarwinOnly = iosFromDarwinOnly
        self.appVersion = appVersion
    }

    /// The bytes of a UA that are read (as ``AppSighting/maxBytes``).
    static let maxBytes = AppSighting.maxBytes

    /// The anatomy of `ua`. `app` is the rules file's app name (nil when unknown) and
    /// `webviewToken` the token its WKWebView appends (the app's name when nil): a UA that carries
    /// either as its own is the app's, not a stack without the app's UA, and is ``Stack/unknown``,
    /// unless it is a CFNetwork default (a bundle named like the app still sent no UA of its own)
    /// or an SDK's (Alamofire and Matomo write the app's name into their own UAs themselves).
    package static func read(_ ua: String, app: String?, webviewToken: String? = nil) -> UAAnatomy {
        let bytes = Array(ua.utf8.prefix(maxBytes))
        let version = UABytes.iosVersion(bytes)
        var anatomy = UAAnatomy(
            ios: version?.ios, iosFromDarwinOnly: version?.fromDarwinOnly ?? false,
            appVersion: appVersion(ua, app: app))
        if UABytes.isSafariProcess(bytes) {
            anatomy.stack = .safari
        } else if let sighting = AppSighting.read(ua), sighting.shape == .cfnetworkDefault {
            anatomy.stack = .urlsessionDefault
            anatomy.bundle = sighting.name
            anatomy.bundleIsExtension = AppSighting.stripExtension(sighting.name) != sighting.name
        } else if let sdk = sdkName(bytes) {
            anatomy.stack = .sdk
            anatomy.sdk = sdk
        } else if namesApp(bytes, app: app, webviewToken: webviewToken) {
            anatomy.stack = .unknown
        } else {
            anatomy.stack = UABytes.webKitStack(bytes) ?? .unknown
        }
        return anatomy
    }

    // MARK: SDKs

    /// The product tokens of SDKs that send their own UA, as they write them, and where each
    /// shape was seen:
    /// - `Alamofire/`: Alamofire's default, `MyShop/3.3.0 (com.x; build:6; iOS 17.0.0) Alamofire/5.6.4`
    ///   (device-detector 6.5.1's fixtures: Liulo, Castamatic, Podclipper, ProCast, NRC, Audacy…);
    /// - `MatomoTrackerSDK/`: Matomo's iOS SDK, `Darwin/24.5.0 (Watch7,8; watchOS 11.4)
    ///   MatomoTrackerSDK/7.7.0` (the same fixtures; it writes the app's name after its own);
    /// - `FBiOSSDK.`: the Facebook SDK's Graph API requests, `FBiOSSDK.17.0.0` (facebook-ios-sdk's
    ///   `FBSDKGraphRequestConnection userAgent`; not in the fixtures);
    /// - `afma-sdk-i-v`: Google Mobile Ads (the fixtures carry its Android twin, `(Mobile;
    ///   afma-sdk-a-v…)`, after a WebView UA; `afma-sdk-i-v…` is the iOS SDK's version string).
    /// AFNetworking's default (`MyShop/3.2.1 (iPhone; iOS 17.4; Scale/3.00)`) has no token of
    /// its own and is what apps copy for their custom UA, so it cannot be told apart: not listed.
    static let sdks: [(token: String, name: String)] = [
        ("Alamofire/", "Alamofire"), ("MatomoTrackerSDK/", "MatomoTrackerSDK"), ("FBiOSSDK.", "FBiOSSDK"),
        ("afma-sdk-i-v", "afma-sdk-i"),
    ]

    /// The first SDK whose token starts a product in `bytes` and has a digit after it.
    static func sdkName(_ bytes: [UInt8]) -> String? {
        for (token, name) in sdks {
            var from = 0
            while let at = UABytes.find(token, in: bytes, from: from) {
                let end = at + token.utf8.count
                if UABytes.startsProduct(bytes, at), end < bytes.count, UABytes.isDigit(bytes[end]) { return name }
                from = at + 1
            }
        }
        return nil
    }

    // MARK: The app's own

    /// `app/` as a product anywhere, or the WKWebView token after the engine as a word.
    static func namesApp(_ bytes: [UInt8], app: String?, webviewToken: String?) -> Bool {
        if let app, !app.isEmpty, UABytes.productVersionStart(app, in: bytes) != nil { return true }
        guard let token = webviewToken ?? app, !token.isEmpty,
            let gecko = UABytes.find(UABytes.gecko, in: bytes, from: 0)
        else { return false }
        var from = gecko + UABytes.gecko.utf8.count
        while let at = UABytes.find(token, in: bytes, from: from) {
            let end = at + token.utf8.count
            let before = bytes[at - 1]
            if before == UInt8(ascii: " ") || before == UInt8(ascii: "[") {
                if end == bytes.count || [" ", "/", "(", ";", "]"].contains(where: { bytes[end] == UInt8(ascii: $0) }) {
                    return true
                }
            }
            from = at + 1
        }
        return false
    }

    /// The app's version from one of its own UAs: with `app`, the version after the first
    /// product `app/` (`MyShop/3.3.0 (iPhone; iOS 17.4; Scale/3.00)`, Alamofire's `MyShop/3.3.0
    /// (com.x; build:6; iOS 17.0.0) Alamofire/5.6.4`, a WKWebView's `… Mobile/15E148 MyShop/3.3.0`);
    /// without it, the version of the name ``AppSighting/read(_:)`` finds. A version is 1 to 32
    /// bytes of `[0-9A-Za-z._-]` starting with a digit. Nil for a CFNetwork default, whose number
    /// is the bundle's build (CFBundleVersion), not the version the App Store shows.
    /// Whether `text` is an app version as ``appVersion(_:app:)`` reads one: 1–32 bytes of
    /// letters, digits, `.`, `_` and `-`, a digit first (what `merge` accepts from a report).
    static func isVersion(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        return UABytes.version(bytes, at: 0) == text
    }

    static func appVersion(_ ua: String, app: String?) -> String? {
        let sighting = AppSighting.read(ua)
        if sighting?.shape == .cfnetworkDefault { return nil }
        let bytes = Array(ua.utf8.prefix(maxBytes))
        if let app, !app.isEmpty {
            return UABytes.productVersionStart(app, in: bytes).flatMap { UABytes.version(bytes, at: $0) }
        }
        guard let sighting else { return nil }
        if sighting.shape == .webview, bytes.starts(with: "Mozilla/".utf8) {
            // The token after the engine: its own `name/version`.
            return UABytes.productVersionStart(sighting.name, in: bytes).flatMap { UABytes.version(bytes, at: $0) }
        }
        // The name is the UA's first product: the version follows its first '/'.
        return bytes.firstIndex(of: UInt8(ascii: "/")).flatMap { UABytes.version(bytes, at: $0 + 1) }
    }
}
