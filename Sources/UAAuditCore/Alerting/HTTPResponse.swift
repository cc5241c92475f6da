/// A service's answer: status, headers (names in lower case) and body.
package struct HTTPResponse: Sendable, Equatable {
    package var status: Int
    package var headers: [String: String]
    /// The first bytes of the answer, at most ``HTTPTransport/answerLimit``.
    package var body: [UInt8]
    /// True when the answer was longer and the rest was not read.
    package var truncated = false

    package init(status: Int, headers: [String: String] = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { a, _ in a })
        self.body = body
    }
}
