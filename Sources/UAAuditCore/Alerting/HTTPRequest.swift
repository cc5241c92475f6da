import Foundation

/// A POST to make: where, the JSON body, and the headers.
public struct HTTPRequest: Sendable, Equatable {
    public var url: URL
    public var body: [UInt8]
    public var headers: [String: String]

    public init(url: URL, body: [UInt8], headers: [String: String] = ["Content-Type": "application/json"]) {
        self.url = url
        self.body = body
        self.headers = headers
    }
}
