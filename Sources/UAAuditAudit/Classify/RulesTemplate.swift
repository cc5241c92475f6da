/// The rules file `uaaudit rules init` writes for one app: what its own stacks send, and
/// non-alerting classes that keep everybody else's traffic visible without paging anyone.
///
/// The shapes come from real User-Agents (Matomo Device Detector's fixtures and Apple's
/// defaults); the reasoning is in each rule's `comment`, and every class gets examples, so the
/// file tests itself whenever it is loaded.
package struct RulesTemplate {
    /// The name the app puts in its own UA (`MyApp` in `MyApp/5.12.1 (iPhone; iOS 17.4.1)`).
    var app: String
    /// Bundle names iOS writes in the default URLSession UA (the app's name first).
    var bundles: [String]
    /// The token the app's WKWebView appends after the engine (`applicationNameForUserAgent`).
    var webviewToken: String

    package init(app: String, bundles: [String] = [], webviewToken: String? = nil) throws(RulesTemplateError) {
        // A name ends at the '/' before its version; a token may hold one ('FBAN/FBIOS').
        for (what, value, slash) in [("--app", app, false), ("--webview-token", webviewToken ?? app, true)]
            + bundles.map({ ("--bundle", $0, false) })
        {
            if value.isEmpty || value.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || (!slash && $0 == 0x2F) })
                || value.first == " " || value.last == " "
            {
                throw RulesTemplateError(option: what, value: value)
            }
            // A name that other software's UAs carry ('Version', 'Safari', 'iPhone', 'Darwin')
            // would make the app's classes take their traffic.
            let lower = value.lowercased()
            if let taken = RulesTemplate.structural.first(where: { $0.lowercased().contains(lower) }) {
                throw RulesTemplateError(option: what, value: value, foreign: taken)
            }
        }
        self.app = app
        var names = [app]
        for b in bundles where !names.contains(b) { names.append(b) }
        self.bundles = names
        self.webviewToken = webviewToken ?? app
    }

    /// The rules file, examples included.
    package func file() -> RulesFile {
        let rules: [RulesFile.RuleEntry] = [
            webview, urlsession, inconsistent, ambiguous, bot, spoofed, browser, otherApp,
        ]
        return RulesFile(
            version: 1, alertClass: "inconsistent", scope: nil, matchLimit: nil, heapLimitKiB: nil,
            comment: "Rules for \(app), written by `uaaudit rules init`. First match wins; patterns are PCRE2, "
                + "unanchored unless they start with ^, on the decoded UA bytes. The app's classes are webview and "
                + "urlsession; inconsistent (the alert class) is the app's own stacks without its custom UA; "
                + "ambiguous, bot, spoofed, browser and other_app keep everybody else visible without alerting. "
                + "The examples are checked whenever the file is loaded: edit a pattern, run `uaaudit rules lint`.",
            app: app, rules: rules, examples: examples)
    }

    // MARK: The pieces of patterns

    /// `name` as a PCRE2 literal.
    static func literal(_ name: String) -> String {
        var out = ""
        for ch in name {
            if "\\^$.|?*+()[]{}#-".contains(ch) { out += "\\" }
            out.append(ch)
        }
        return out
    }

    /// A bundle name as the default UA writes it: spaces as spaces or `%20`, and any other
    /// non-ASCII character as itself or percent-encoded (`Café` or `Caf%C3%A9`).
    static func bundleLiteral(_ name: String) -> String {
        var out = ""
        for ch in name {
            if ch == " " {
                out += "(?: |%20)"
            } else if ch.isASCII {
                out += literal(String(ch))
            } else {
                let encoded = String(ch).utf8.map { "%" + String($0, radix: 16, uppercase: true) }.joined()
                out += "(?:" + literal(String(ch)) + "|" + encoded + ")"
            }
        }
        return out
    }

    /// The device and OS parenthesis of an iOS WebKit UA, any OS version with underscores.
    /// Possessive: 'CPU iPhone OS 17_0_0_…' in 2,000 parts must not fill PCRE2's JIT stack
    /// with a backtracking point per part (the UA was counted under errors; issue 31).
    static let iosDevice =
        #"\((?:iPhone|iPad|iPod(?: touch)?);(?: U;)? CPU (?:iPhone )?OS \d+(?:_\d+)*+ like Mac OS X[^)]*\)"#
    /// What follows the app's bundle name in an extension's, widget's or watch app's: ' WatchKit
    /// Extension', 'WidgetExtension', '.WidgetsExtension', ' Intents', ' Watch App', ' AutoFill',
    /// '%20Notification%20Service'. One to four words of the extension kinds iOS has, each after an
    /// optional separator, and nothing else: another app that merely starts with the same name
    /// ('Shopify Widget' or 'Shop Pro Widget' for 'Shop', 'WhatsApp Business' for 'WhatsApp') is
    /// not taken. A bounded repeat of plain words: no nested unbounded repeats.
    static let extensionSuffix =
        "(?:(?:[ ._-]|%20)?(?:" + extensionWords.joined(separator: "|") + ")){0,4}"
    /// The words of extension bundle names (matched in any case, as the whole pattern is).
    static let extensionWords = [
        "Watch(?:Kit)?(?:(?: |%20)?App)?", "Widgets?", "WidgetKit", "Extensions?", "Intents(?:UI)?", "Intent", "Clip",
        "Notifications?", "Service", "Content", "Share", "Action", "Today", "Stickers?", "Pack", "Keyboard",
        "AutoFill", "Credentials?", "Provider", "Siri", "Photos?", "Editing", "Files?", "Broadcast", "Upload",
        "Live", "Activit(?:y|ies)", "Complications?", "iMessage", "Messages", "Screen", "Lock", "Controls?",
        "Center", "Tunnel", "Packet", "Location", "Push",
    ]
    /// An iOS version as apps write it: 'iOS 18.1.1', 'iOS/14.2', 'iOS16.2', 'iPadOS/16.6',
    /// 'iPhone OS 7_0_4', WebKit's 'CPU OS 12_5_7'; not a Mac's 'Mac OS/14.0'.
    static let osVersion = #"(?:iOS|iPadOS|iPhone OS|CPU OS)[ /]?\d++(?:[._]\d++)*+(?![\w.])"#
    /// The engine's products a WKWebView or Safari writes after '(KHTML, like Gecko)':
    /// ' Version/15.1 Mobile/15E148 Safari/605.1'; WKWebView's applicationNameForUserAgent comes after them.
    /// Possessive: a UA of many such products must not fill PCRE2's JIT stack with backtracking points.
    static let engineTail = #"(?: (?:Version|Mobile|Safari)(?:/[\w.]+|(?!\w)))*+"#
    /// After the webview token and its version: no more of the engine ('News/582.1 Version/2.0' is Apple News).
    static let noEngineAfter = #"(?![^ ]* (?:Version|Mobile|Safari)/)"#
    static let webkit = #" AppleWebKit/[\d.]+ \(KHTML, like Gecko\)"#

    var appLiteral: String { RulesTemplate.literal(app) }
    var tokenLiteral: String { RulesTemplate.literal(webviewToken) }
    var bundleAlternatives: String {
        let names = bundles.map(RulesTemplate.bundleLiteral)
        return names.count == 1 ? names[0] : "(?:" + names.joined(separator: "|") + ")"
    }

    // MARK: The rules

    var webview: RulesFile.RuleEntry {
        RulesFile.RuleEntry(
            class: "webview",
            patterns: [
                "^\(appLiteral)/\\d[^ ]* \\((?:iPhone|iPad|iPod)[^)]*\\).*\(RulesTemplate.webkit)",
                #"^Mozilla/5\.0 \((?:iPhone|iPad|iPod(?: touch)?|Macintosh);[^)]*\) AppleWebKit/(?!537\.36)[\d.]+ \(KHTML, like Gecko\)"#
                    + RulesTemplate.engineTail + " \\[?" + tokenLiteral + "(?![A-Za-z0-9])"
                    + RulesTemplate.noEngineAfter,
            ],
            comment: "\(app)'s WKWebView. Two shapes: the app's UA first and the engine after it (customUserAgent "
                + "set to '\(app)/x.y.z (iPhone; …) Mozilla/5.0 …'), or, as real in-app browsers do, Safari's "
                + "engine string first and the app's token '\(webviewToken)' after it "
                + "('… Mobile/15E148 \(webviewToken)/5.12.1', what applicationNameForUserAgent appends; "
                + "Instagram, [FBAN/FBIOS…] and MicroMessenger look like this). The token counts only where WKWebView "
                + "puts it: right after the engine's last product (Version/…, Mobile/…, Safari/…), as a whole word, "
                + "with what the app writes after it (its version, a parenthesis); not inside another app's part "
                + "('NAVER(inapp; search; 1010; …)' is not '1010'), and not before more of the engine ('News/582.1 "
                + "Version/2.0' is Apple News). iPadOS desktop mode puts it after a Macintosh UA. Blink's "
                + "AppleWebKit/537.36 is never iOS.")
    }

    var urlsession: RulesFile.RuleEntry {
        RulesFile.RuleEntry(
            class: "urlsession",
            patterns: [
                "^\(appLiteral)[/ ]v?\\d.*?[ /;(]\(RulesTemplate.osVersion)"
            ],
            comment: "\(app)'s own UA from URLSession: the app's name and version first, and somewhere after them "
                + "the OS and its version, which iOS's default UA never carries. Real apps write it in a "
                + "parenthesis with dots (UIDevice.current.systemVersion: 'WeatherBug Elite/5.97.0 (iPhone; iOS "
                + "18.1.1; Scale/2.00)'), with underscores, with a slash ('(iOS/14.2; Tablet; en-US; …)'), in "
                + "WebKit's words without the engine ('(iPhone; CPU iPhone OS 16_3_1 like Mac OS X)'), after the "
                + "version ('\(app)/8.7.70 iOS/16.0 (iPhone14,7)', '; iPadOS/16.6'), or after the default "
                + "CFNetwork and Darwin tokens ('… Darwin/22.6.0 (iPhone iOS/16.6)', '… iPhone11,6 iOS16.2'). "
                + "Alamofire's default '(bundle.id; build:6; iOS 17.0.0) Alamofire/5.6.4' and old "
                + "'iPhone OS 7_0_4' also fit. A Mac's 'Mac OS/14.0' does not.")
    }

    var inconsistent: RulesFile.RuleEntry {
        RulesFile.RuleEntry(
            class: "inconsistent",
            patterns: [
                "^(?i:\(bundleAlternatives)\(RulesTemplate.extensionSuffix))/[^ /]+ CFNetwork/[\\d.]+ Darwin/[\\d.]+$",
                #"^Mozilla/5\.0 \((?:iPhone|iPad|iPod touch); CPU (?:iPhone )?OS \d+(?:_\d+)++ like Mac OS X\) AppleWebKit/605\.1\.15 \(KHTML, like Gecko\) Mobile/15E148$"#,
                #"com\.apple\.CFNetwork"#,
            ],
            comment: "\(app)'s own stacks without its custom UA. URLSession's default is "
                + "'<CFBundleName>/<CFBundleVersion> CFNetwork/<v> Darwin/<v>' and nothing after it, for the app "
                + "and each extension or widget (bundle names \(bundles.map { "'\($0)'" }.joined(separator: ", ")) "
                + "in any case, spaces written as spaces or %20, and their extensions, widgets and watch apps: "
                + "' WatchKit Extension', 'WidgetExtension', '.WidgetsExtension', ' Intents', ' Watch App'; an "
                + "extension with another name needs --bundle). The second pattern is a default WKWebView in its "
                + "modern shape only (AppleWebKit/605.1.15, Mobile/15E148, nothing after): it cannot be told apart "
                + "from ANOTHER app's default WKWebView, so some of this class may not be \(app). Old 'U;'/locale "
                + "forms are left to other. The third is the com.apple.CFNetwork token of old SDKs.")
    }

    var ambiguous: RulesFile.RuleEntry {
        RulesFile.RuleEntry(
            class: "ambiguous",
            patterns: [
                #"^Mozilla/5\.0 \(Macintosh; Intel Mac OS X 10_15(?:_\d+)?\) AppleWebKit/605\.1\.15 \(KHTML, like Gecko\)$"#
            ],
            comment: "iPadOS 13+ in desktop mode sends a Mac UA: a default WKWebView sends exactly this, and so "
                + "does a default WKWebView in any Mac app. Inherently ambiguous: counted, never alerted.")
    }

    var bot: RulesFile.RuleEntry {
        RulesFile.RuleEntry(
            class: "bot",
            patterns: [#"(?i)(?:bot|crawler|spider|slurp)(?:[/ ;)_-]|$)|(?i)\+https?://"#],
            comment: "Crawlers and monitors (they name themselves bot, crawler, spider or give a +http URL), "
                + "including those that copy an iPhone UA, such as Googlebot-Mobile.")
    }

    var spoofed: RulesFile.RuleEntry {
        RulesFile.RuleEntry(
            class: "spoofed",
            patterns: [
                #"^Mozilla/5\.0 \((?:iPhone|iPad|iPod)[^)]*\).*(?:AppleWebKit/537\.36|Chrome/\d|Firefox/\d|Gecko/\d)"#
            ],
            comment: "Claims to be an iPhone or iPad with a Blink or Gecko engine, which iOS does not run: "
                + "'… (iPhone; …) AppleWebKit/537.36 … Chrome/44 Mobile Safari/537.36'. Chrome, Firefox and Edge "
                + "on iOS are WebKit and say CriOS, FxiOS and EdgiOS instead.")
    }

    var browser: RulesFile.RuleEntry {
        RulesFile.RuleEntry(
            class: "browser",
            patterns: [
                "^Mozilla/5\\.0 \(RulesTemplate.iosDevice)\(RulesTemplate.webkit) Version/[\\d.]+(?: Mobile/\\w+)? Safari/[\\d.]+$",
                "^Mozilla/5\\.0 \(RulesTemplate.iosDevice)\(RulesTemplate.webkit) (?:CriOS|FxiOS|EdgiOS)/[\\d.]+(?: Version/[\\d.]+)?(?: Mobile/\\w+)?(?: Safari/[\\d.]+)?$",
                #"^Mozilla/5\.0 \(Macintosh; (?:U; )?(?:Intel|PPC) Mac OS X[^)]*\) AppleWebKit/[\d.]+ \(KHTML, like Gecko\) Version/[\d.]+(?: Mobile/\w+)? Safari/[\d.]+$"#,
                #"^Mozilla/5\.0 \((?:Windows NT|X11|Macintosh|Linux; Android)[^)]*\) (?:AppleWebKit/537\.36 \(KHTML, like Gecko\) Chrome/[\d.]+ (?:Mobile )?Safari/537\.36(?: Edg/[\d.]+)?|Gecko/\d+ Firefox/[\d.]+)$"#,
            ],
            comment: "People browsing: Mobile Safari (Version/… Mobile/… Safari/… and nothing after it), Chrome, "
                + "Firefox and Edge on iOS (CriOS, FxiOS, EdgiOS; Edge adds Version/), desktop Safari (and iPadOS "
                + "desktop mode's, which may keep Mobile/15E148), and plain desktop and Android "
                + "Chrome, Edge and Firefox. Other apps' in-app browsers add their own token and are other_app.")
    }

    var otherApp: RulesFile.RuleEntry {
        RulesFile.RuleEntry(
            class: "other_app",
            patterns: [
                #"CFNetwork/[\d.]+ Darwin/[\d.]+"#,
                "^Mozilla/5\\.0 \(RulesTemplate.iosDevice)\(RulesTemplate.webkit) "
                    + #"(?!(?:Version/[\d.]+ )?Mobile/\w+(?: Safari/[\d.]+)?$)."#,
            ],
            comment: "Other apps on the same devices: their default URLSession UAs (WhatsApp/794299312 "
                + "CFNetwork/…, Slack/…) and Apple's own daemons (weatherd, Mail, Podcasts), and other apps' "
                + "in-app browsers (Safari's engine string with their token after it: Instagram, FBAN/FBIOS, "
                + "NAVER(inapp…), GSA).")
    }

    // MARK: Examples

    /// Real UAs of the non-alerting classes (sources in the README), skipping any that would be
    /// the app's own.
    static let foreign: [(ua: String, class: String)] = [
        (
            "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko)",
            "ambiguous"
        ),
        (
            "Mozilla/5.0 (iPhone; CPU iPhone OS 6_0 like Mac OS X) AppleWebKit/536.26 (KHTML, like Gecko) Version/6.0 Mobile/10A5376e Safari/8536.25 (compatible; Googlebot-Mobile/2.1; +http://www.google.com/bot.html)",
            "bot"
        ),
        (
            "Mozilla/5.0 (iPhone; CPU iPhone OS 9_1 like Mac OS X) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/44.0.2403.155 Mobile Safari/537.36",
            "spoofed"
        ),
        (
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.2 Mobile/15E148 Safari/604.1",
            "browser"
        ),
        (
            "Mozilla/5.0 (iPad; CPU OS 7_0 like Mac OS X) AppleWebKit/537.51.1 (KHTML, like Gecko) CriOS/32.0.1700.20 Mobile/11A465 Safari/9537.53",
            "browser"
        ),
        (
            "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.2 Safari/605.1.15",
            "browser"
        ),
        (
            "Mozilla/5.0 (iPhone; CPU iPhone OS 18_4_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) EdgiOS/135.0.3179.54 Version/18.0 Mobile/15E148 Safari/604.1",
            "browser"
        ),
        (
            "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36",
            "browser"
        ),
        ("WhatsApp/2.23.20.76 CFNetwork/1474 Darwin/23.0.0", "other_app"),
        ("Reeder/5040002 CFNetwork/1408.0.4 Darwin/22.5.0", "other_app"),
        ("Mail/3731.600.7 CFNetwork/1408.0.4 Darwin/22.5.0", "other_app"),
        (
            "Mozilla/5.0 (iPhone; CPU iPhone OS 16_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Instagram 283.0.0.16.103 (iPhone15,3; iOS 16_5; ru_UZ; ru-UZ; scale=3.00; 1290x2796; 474411477)",
            "other_app"
        ),
        (
            "Mozilla/5.0 (iPhone; CPU iPhone OS 15_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/15.1 Mobile/15E148 Safari/605.1 NAVER(inapp; search; 1000; 11.8.10; 13)",
            "other_app"
        ),
    ]

    /// UAs no app name may occur in: browsers, bots, spoofed and ambiguous shapes, and the
    /// parts every default CFNetwork UA has. (Other apps' UAs are not here: the operator's
    /// app may be one of them, and its examples then skip them.)
    static let structural: [String] =
        foreign.filter { $0.class != "other_app" }.map(\.ua) + [
            "x/1 CFNetwork/1494.0.7 Darwin/23.4.0 com.apple.CFNetwork"
        ]

    var examples: [RulesFile.ExampleEntry] {
        let token = webviewToken
        var list: [(String, String)] = [
            (
                "\(app)/5.12.1 (iPhone; iOS 17.4.1) Mozilla/5.0 (iPhone; CPU iPhone OS 17_4_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148",
                "webview"
            ),
            (
                "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 \(token)/5.12.1",
                "webview"
            ),
            (
                "Mozilla/5.0 (iPad; CPU OS 17_4_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 \(token) 5.12.1",
                "webview"
            ),
            ("\(app)/5.12.1 (iPhone; iOS 17.4.1; Scale/3.00)", "urlsession"),
            ("\(app)/5.12.1 (iPad; iPad13,4; iPadOS 17_4_1)", "urlsession"),
            ("\(app)/5.12.1 (iPhone; iPhone15,3; iOS 17_4)", "urlsession"),
            ("\(app)/108.1 (iPhone; CPU iPhone OS 16_3_1 like Mac OS X)", "urlsession"),
            ("\(app)/98 (iPad; CPU OS 12_5_7 like Mac OS X)", "urlsession"),
            ("\(app)/2.45.106 (iOS/14.2; Tablet; en-US; AppStore; Apple/iPad8,9)", "urlsession"),
            ("\(app)/6.0.3 iPad14,4 iPadOS/17.5.1 CFNetwork/1.0 Darwin/23.5.0", "urlsession"),
            ("\(app)/2.2.52 CFNetwork/1410.0.3 Darwin/22.6.0 (iPhone iOS/16.6)", "urlsession"),
        ]
        for bundle in bundles {
            list.append(("\(bundle)/51200 CFNetwork/1494.0.7 Darwin/23.4.0", "inconsistent"))
            if bundle.contains(" ") {
                list.append(
                    ("\(bundle.replacingSpaces())/51200 CFNetwork/1494.0.7 Darwin/23.4.0", "inconsistent"))
            }
        }
        list += [
            ("\(app) WatchKit Extension/1 CFNetwork/1494.0.7 Darwin/23.4.0", "inconsistent"),
            ("\(app) Watch App/1 CFNetwork/1494.0.7 Darwin/24.4.0", "inconsistent"),
            ("\(app).WidgetsExtension/1 CFNetwork/1494.0.7 Darwin/23.4.0", "inconsistent"),
            ("\(app.lowercased())WidgetExtension/1 CFNetwork/1494.0.7 Darwin/23.4.0", "inconsistent"),
            (
                "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148",
                "inconsistent"
            ),
            (
                "Mozilla/5.0 (iPad; CPU OS 17_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148",
                "inconsistent"
            ),
            ("YourSDK/1.0 com.apple.CFNetwork/1494.0.7", "inconsistent"),
        ]
        let own = ([app, webviewToken] + bundles).map { $0.lowercased() }
        for example in RulesTemplate.foreign {
            let lower = example.ua.lowercased()
            if own.contains(where: { lower.contains($0) }) { continue }
            list.append((example.ua, example.class))
        }
        return list.map { RulesFile.ExampleEntry(ua: $0.0, class: $0.1, comment: nil) }
    }
}

/// A `rules init` value that cannot name an app, a bundle or a token.
package struct RulesTemplateError: Error, Equatable, CustomStringConvertible {
    let option: String
    let value: String
    /// A UA of other software that contains the value, when that is why it was refused.
    var foreign: String? = nil

    package var description: String {
        if let foreign {
            return "\(option) '\(value)' also occurs in other software's User-Agents ('\(foreign)'): rules for it "
                + "would take their traffic; give the exact name your app writes before the '/' of its UA"
        }
        return "\(option) '\(value)' must be non-empty, without control characters"
            + (option == "--webview-token" ? "" : " or '/'") + ", and not start or end with a space"
    }
}

extension String {
    fileprivate func replacingSpaces() -> String {
        split(separator: " ", omittingEmptySubsequences: false).joined(separator: "%20")
    }
}
