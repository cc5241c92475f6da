import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

@Suite struct CauseFixTests {
    static let cases: [(UAAnatomy.Stack, String?, Bool, String?, String)] = [
        (
            .urlsessionDefault, "MyShop", false, nil,
            #"A URLSession or NSURLConnection sent CFNetwork's default UA: set URLSessionConfiguration.httpAdditionalHeaders["User-Agent"] on the configuration every session is made from (or per request)."#
        ),
        (
            .urlsessionDefault, "MyShopWidgetExtension", true, nil,
            #"The extension MyShopWidgetExtension runs in its own process with its own URLSession: set URLSessionConfiguration.httpAdditionalHeaders["User-Agent"] on its configuration too."#
        ),
        (
            .urlsessionDefault, nil, true, nil,
            #"The app extension runs in its own process with its own URLSession: set URLSessionConfiguration.httpAdditionalHeaders["User-Agent"] on its configuration too."#
        ),
        (
            .wkwebviewWithoutToken, nil, false, nil,
            "Set WKWebViewConfiguration.applicationNameForUserAgent (or customUserAgent) before the WKWebView is created, and check no web view uses another configuration or overwrites customUserAgent."
        ),
        (
            .safari, nil, false, nil,
            "Safari and SFSafariViewController send Safari's own UA, which the app cannot set: open the page in the app's WKWebView, or do not send these requests to UA-checked endpoints."
        ),
        (
            .sdk, nil, false, "Alamofire",
            "Alamofire sends its own User-Agent: set User-Agent in the HTTPHeaders of the Alamofire Session (or per request), or make the Session from the app's URLSessionConfiguration."
        ),
        (
            .sdk, nil, false, "FBiOSSDK",
            "FBiOSSDK sends its own User-Agent: set it in FBiOSSDK's configuration, or give FBiOSSDK the app's URLSessionConfiguration."
        ),
        (
            .sdk, nil, false, nil,
            "An SDK sends its own User-Agent: set it in its configuration, or give it the app's URLSessionConfiguration."
        ),
        (
            .unknown, "MyShop", false, "x",
            "No known iOS stack sends this UA: find the code from its paths and top UAs."
        ),
    ]

    @Test func eachStackHasItsSentence() {
        for (stack, bundle, isExtension, sdk, sentence) in Self.cases {
            #expect(
                CauseFix.sentence(stack: stack, bundle: bundle, bundleIsExtension: isExtension, sdk: sdk) == sentence)
        }
    }

    /// Chat alerts cut long lines: every sentence stays short, with the longest names a UA can carry.
    @Test func everySentenceStaysUnder200CharactersWithTheLongestNames() {
        let long = String(repeating: "Ω", count: 96)
        for stack in UAAnatomy.Stack.allCases {
            for bundle in [nil, "", long] {
                for isExtension in [false, true] {
                    for sdk in [nil, "", long, "Alamofire"] {
                        let sentence = CauseFix.sentence(
                            stack: stack, bundle: bundle, bundleIsExtension: isExtension, sdk: sdk)
                        #expect(sentence.count < CauseFix.maxLength, "\(sentence)")
                        #expect(sentence.hasSuffix(".") && !sentence.dropLast().contains(". "), "\(sentence)")
                    }
                }
            }
        }
        #expect(
            CauseFix.sentence(stack: .sdk, bundle: nil, bundleIsExtension: false, sdk: long).hasPrefix(
                String(repeating: "Ω", count: 31) + "… sends"))
    }
}
