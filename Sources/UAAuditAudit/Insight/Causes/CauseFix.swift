/// The one sentence that tells an iOS engineer what to change for a UA of a given stack.
///
/// Written in the API names they search for (`httpAdditionalHeaders`,
/// `applicationNameForUserAgent`, `SFSafariViewController`), because the reader has the code
/// open and needs the line to change, not a description of the symptom. Each sentence stays
/// under ``maxLength`` characters whatever the names in it: they go into chat alerts, where a
/// long line is cut.
package enum CauseFix {
    /// The longest sentence, in characters.
    static let maxLength = 200
    /// The longest bundle or SDK name quoted in a sentence; longer ones are cut with "…".
    static let maxName = 32

    package static func sentence(
        stack: UAAnatomy.Stack, bundle: String?, bundleIsExtension: Bool, sdk: String?
    ) -> String {
        switch stack {
        case .urlsessionDefault where bundleIsExtension:
            let name = bundle.map { "The extension " + short($0) } ?? "The app extension"
            return name + " runs in its own process with its own URLSession: set "
                + #"URLSessionConfiguration.httpAdditionalHeaders["User-Agent"] on its configuration too."#
        case .urlsessionDefault:
            return "A URLSession or NSURLConnection sent CFNetwork's default UA: set "
                + #"URLSessionConfiguration.httpAdditionalHeaders["User-Agent"] on the configuration every session is "#
                + "made from (or per request)."
        case .wkwebviewWithoutToken:
            return "Set WKWebViewConfiguration.applicationNameForUserAgent (or customUserAgent) before the WKWebView "
                + "is created, and check no web view uses another configuration or overwrites customUserAgent."
        case .safari:
            return "Safari and SFSafariViewController send Safari's own UA, which the app cannot set: open the page "
                + "in the app's WKWebView, or do not send these requests to UA-checked endpoints."
        case .sdk where sdk == "Alamofire":
            return "Alamofire sends its own User-Agent: set User-Agent in the HTTPHeaders of the Alamofire Session "
                + "(or per request), or make the Session from the app's URLSessionConfiguration."
        case .sdk:
            let name = sdk.map(short) ?? "An SDK"
            let owner = sdk.map { short($0) + "'s" } ?? "its"
            let object = sdk.map(short) ?? "it"
            return name + " sends its own User-Agent: set it in \(owner) configuration, or give \(object) the app's "
                + "URLSessionConfiguration."
        case .unknown:
            return "No known iOS stack sends this UA: find the code from its paths and top UAs."
        }
    }

    /// `name` cut to ``maxName`` characters.
    static func short(_ name: String) -> String {
        name.count <= maxName ? name : String(name.prefix(maxName - 1)) + "…"
    }
}
