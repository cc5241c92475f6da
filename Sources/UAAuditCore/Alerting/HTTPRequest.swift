import FoundationEssentials

/// A POST to make: where, the JSON body, and the headers.
package struct HTTPRequest: Sendable, Equatable {
    package var url: URL
    package var body: [UInt8]
    package var headers: [String: String]
    /// How many of the notification's hours (the first ones) the message shows, when a size
    /// limit made it leave some out; nil when it carries them all.
    package var hoursCarried: Int? = nil
    /// Secret values the body carries (Feishu's `timestamp` and `sign`): an answer that echoes
    /// them is scrubbed of them, like the URL's.
    package var bodySecrets: [String] = []

    package init(url: URL, body: [UInt8], headers: [String: String] = ["Content-Type": "application/json"]) {
        self.url = url
        self.body = body
        self.headers = headers
    }
}
