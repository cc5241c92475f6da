import UAAuditInput

/// One app-shaped User-Agent: which app it names, and in which of an iOS app's shapes.
///
/// Read from a UA's text without rules, so that `doctor` and the example-rules notice can name
/// an operator's app that no rule knows yet. The shapes are those real apps send (device-detector's
/// fixtures, Apple's defaults):
/// - `custom`: the app's own UA, `MyShop/3.2.1 (iPhone; iOS 17.4; Scale/3.00)`, any parenthesis
///   that names iPhone, iPad, iPod, iOS or iPadOS (`CPU iPhone OS 16_3_1 like Mac OS X`, `iOS/14.2`);
/// - `alamofire`: Alamofire's default, `MyShop/3.2.1 (com.example.shop; build:6; iOS 17.0.0) Alamofire/5.6.4`;
/// - `cfnetworkCustom`: the app's own UA built on the default's tokens and more after them,
///   `Snipd/2.2.52 CFNetwork/1410.0.3 Darwin/22.6.0 (iPhone iOS/16.6)`;
/// - `cfnetworkDefault`: URLSession's default, `<CFBundleName>/<build> CFNetwork/<v> Darwin/<v>`
///   and nothing after it (the bundle may be an extension's: `MyShop WatchKit Extension`);
/// - `webview`: a WKWebView UA with the app's token after the engine's last product token
///   (`… Mobile/15E148 MyShop/3.2.1`, what `applicationNameForUserAgent` appends), or the app's
///   own UA followed by the engine (`MyShop/3.2.1 (iPhone; iOS 17.4) Mozilla/5.0 … AppleWebKit/…`).
///
/// Digit runs may be written `#` (UA families, as reports list them). Only the first
/// ``maxBytes`` bytes of a UA are read, so a long UA costs no more than a short one.
package struct AppSighting: Equatable, Sendable {
    package enum Shape: String, CaseIterable, Sendable, Comparable {
        case custom
        case alamofire
        case cfnetworkCustom = "custom with CFNetwork tokens"
        case webview
        case cfnetworkDefault = "CFNetwork default"

        package static func < (a: Shape, b: Shape) -> Bool {
            allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
        }
    }

    /// The name as the UA writes it, percent-decoded: for a default, the bundle's name.
    var name: String
    /// The app the name belongs to: the name without an extension's or widget's suffix.
    var app: String
    var shape: Shape

    /// The bytes of a UA read for its shape.
    static let maxBytes = 512

    /// The sighting in `ua`, or nil when it is not one of an iOS app's shapes.
    static func read(_ ua: String) -> AppSighting? {
        let text = Substring(String(decoding: ua.utf8.prefix(maxBytes), as: UTF8.self))
        if text.hasPrefix("Mozilla/") { return webview(text) }
        return named(text)
    }

    // MARK: NAME/VERSION …

    private static func named(_ text: Substring) -> AppSighting? {
        guard let slash = text.firstIndex(of: "/") else { return nil }
        guard let name = appName(text[..<slash]) else { return nil }
        let afterSlash = text[text.index(after: slash)...]
        let version = afterSlash.prefix { $0 != " " }
        guard isVersion(version) else { return nil }
        let rest = afterSlash.dropFirst(version.count).drop { $0 == " " }
        if rest.hasPrefix("CFNetwork/") {
            // CFNetwork/<v> Darwin/<v>, then nothing (the default) or the app's own fields.
            let cfnetwork = rest.dropFirst("CFNetwork/".count).prefix { $0 != " " }
            let afterCF = rest.dropFirst("CFNetwork/".count + cfnetwork.count)
            guard isVersion(cfnetwork), afterCF.hasPrefix(" Darwin/") else { return nil }
            let darwin = afterCF.dropFirst(" Darwin/".count).prefix { $0 != " " }
            guard isVersion(darwin) else { return nil }
            let trailing = afterCF.dropFirst(" Darwin/".count + darwin.count).drop { $0 == " " }
            if trailing.isEmpty {
                return AppSighting(name: name, app: AppSighting.stripExtension(name), shape: .cfnetworkDefault)
            }
            guard names(trailing, anyOf: deviceWords) else { return nil }
            return AppSighting(name: name, app: name, shape: .cfnetworkCustom)
        }
        guard rest.hasPrefix("("), let close = rest.firstIndex(of: ")") else { return nil }
        let inside = rest[rest.index(after: rest.startIndex)..<close]
        guard names(inside, anyOf: deviceWords) else { return nil }
        let after = rest[rest.index(after: close)...]
        if after.hasPrefix(" Alamofire/") { return AppSighting(name: name, app: name, shape: .alamofire) }
        if after.contains("AppleWebKit/") { return AppSighting(name: name, app: name, shape: .webview) }
        return AppSighting(name: name, app: name, shape: .custom)
    }

    /// The words that make a parenthesis an iOS device's.
    private static let deviceWords = ["iPhone", "iPad", "iPod", "iOS", "iPadOS"]

    private static func names(_ text: Substring, anyOf words: [String]) -> Bool {
        words.contains { text.contains($0) }
    }

    /// A version as apps write it: a digit (or `#`) first, or `v` and a digit.
    private static func isVersion(_ token: Substring) -> Bool {
        var token = token
        if token.first == "v" || token.first == "V" { token = token.dropFirst() }
        guard let first = token.first else { return false }
        return first == "#" || first.isASCII && first.isNumber
    }

    /// The name before a UA's first '/', percent-decoded, when it can name an app: 1 to 64
    /// characters, starting with a letter or digit, without the punctuation of other fields.
    private static func appName(_ raw: Substring) -> String? {
        guard !raw.isEmpty, raw.utf8.count <= 96 else { return nil }
        let decoded = raw.contains("%") ? (PercentEncoding.decode(String(raw)) ?? String(raw)) : String(raw)
        // A name has a letter: `10.6.20` is a version, not an app.
        guard let first = decoded.first, first.isLetter || first.isNumber || first == "#",
            decoded.contains(where: \.isLetter),
            decoded.count <= 64, decoded.last != " ",
            !decoded.contains(where: { "()[];,=\"\\<>{}".contains($0) || $0.asciiValue.map { $0 < 0x20 } == true }),
            !notApps.contains(decoded.lowercased())
        else { return nil }
        return decoded
    }

    /// Names before a '/' that are engines, browsers and libraries, never an app.
    /// (An app called `Mobile` or `Version` is listed: `rules init` then says why it refuses it.)
    private static let notApps: Set<String> = [
        "mozilla", "opera", "dalvik", "okhttp", "curl", "wget", "python-requests", "go-http-client", "java",
        "apache-httpclient", "safari", "darwin", "cfnetwork",
    ]

    // MARK: WKWebView

    /// Browsers' own tokens after the engine: a UA with one is a browser, not an app's web view.
    private static let browserTokens = ["CriOS", "FxiOS", "EdgiOS", "OPiOS", "OPT", "YaBrowser", "DuckDuckGo"]
    /// Tokens WebKit itself writes after the engine.
    private static let engineTokens = ["Version", "Mobile", "Safari"]

    private static func webview(_ text: Substring) -> AppSighting? {
        guard
            text.hasPrefix("Mozilla/5.0 (iPhone") || text.hasPrefix("Mozilla/5.0 (iPad")
                || text.hasPrefix("Mozilla/5.0 (iPod"),
            let engine = text.firstRange(of: ") AppleWebKit/"),
            let gecko = text[engine.upperBound...].firstRange(of: " (KHTML, like Gecko)")
        else { return nil }
        var tokens = text[gecko.upperBound...].split(separator: " ")[...]
        // Skip WebKit's own tokens; what follows the last of them is the app's.
        while let token = tokens.first {
            let product = token.prefix { $0 != "/" }
            if browserTokens.contains(String(product)) { return nil }
            guard engineTokens.contains(String(product)), token.contains("/") else { break }
            tokens = tokens.dropFirst()
        }
        guard let token = tokens.first else { return nil }
        let raw = token.prefix { $0 != "/" && $0 != "(" }
        guard
            raw.count == token.count || token.dropFirst(raw.count).hasPrefix("/")
                || token.dropFirst(raw.count).hasPrefix("(")
        else { return nil }
        guard let name = appName(raw), !engineTokens.contains(name) else { return nil }
        return AppSighting(name: name, app: name, shape: .webview)
    }

    // MARK: Extensions

    /// Words iOS apps write after their bundle name for their extensions, widgets and watch
    /// apps (as `rules init`'s ``RulesTemplate/extensionWords``), longest first.
    static let extensionWords = [
        "NotificationServiceExtension", "NotificationContentExtension", "WidgetsExtension", "WidgetExtension",
        "WatchKit App", "WatchKitApp", "Watch App", "WatchKit", "Watch", "Widgets", "WidgetKit", "Widget",
        "Extensions", "Extension", "IntentsUI", "Intents", "Intent", "Clip", "Notifications", "Notification",
        "Service", "Content", "Share", "Action", "Today", "Stickers", "Sticker", "Pack", "Keyboard", "AutoFill",
        "Credentials", "Credential", "Provider", "Siri", "Photos", "Photo", "Editing", "Files", "File", "Broadcast",
        "Upload", "Live", "Activities", "Activity", "Complications", "Complication", "iMessage", "Messages",
        "Screen", "Lock", "Controls", "Control", "Center", "Tunnel", "Packet", "Location", "Push",
    ]

    /// `name` without an extension's suffix (`MyShop WatchKit Extension`, `MyShop.WidgetsExtension`,
    /// `MyShopWidgetExtension`, `MyShop AutoFill` are all `MyShop`): up to four such words, each
    /// after an optional separator; the name itself when none is there or nothing would be left.
    static func stripExtension(_ name: String) -> String {
        var base = Substring(name)
        for _ in 0..<4 {
            let lower = base.lowercased()
            guard let word = extensionWords.first(where: { lower.hasSuffix($0.lowercased()) }) else { break }
            var rest = base.dropLast(word.count)
            while let last = rest.last, last == " " || last == "." || last == "-" || last == "_" {
                rest = rest.dropLast()
            }
            guard rest.count >= 2 else { break }
            base = rest
        }
        return String(base)
    }
}
