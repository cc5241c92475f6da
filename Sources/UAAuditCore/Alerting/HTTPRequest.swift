import Foundation

/// A POST to make: where, the JSON body, and the headers.
package struct HTTPRequest: Sendable, Equatable {
    package var url: URL
    package var body: [UInt8]
    package var headers: [String: String]

    package init(url: URL, body: [UInt8], headers: [String: String] = ["Content-Type": "application/json"]) {
        self.url = url
        self.body = body
        self.headers = headers
    }
}
