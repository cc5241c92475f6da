import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

@Suite struct RequestLineTests {
    static func path(of request: String) -> String? {
        Array(request.utf8).withUnsafeBytes { raw in
            RequestLine.path(of: raw).map { String(decoding: $0, as: UTF8.self) }
        }
    }

    static func path(ofURI uri: String) -> String? {
        Array(uri.utf8).withUnsafeBytes { raw in
            RequestLine.path(ofURI: raw).map { String(decoding: $0, as: UTF8.self) }
        }
    }

    @Test(arguments: [
        ("GET /api/v2/me HTTP/1.1", "/api/v2/me"),
        ("GET /api/v2/me?x=1&y=2 HTTP/1.1", "/api/v2/me"),
        ("POST /login HTTP/2.0", "/login"),
        ("GET /", "/"),
        ("GET /a?b", "/a"),
        ("OPTIONS * HTTP/1.1", "*"),
        ("CONNECT example.com:443 HTTP/1.1", "example.com:443"),
        ("GET http://example.com/x?y HTTP/1.1", "http://example.com/x"),
        (#"GET /search\x22a b HTTP/1.1"#, #"/search\x22a"#),
        ("GET /a%20b HTTP/1.1", "/a%20b"),
    ])
    func pathOfRequest(request: String, path: String) {
        #expect(Self.path(of: request) == path)
    }

    @Test(arguments: [
        "",
        "GET",
        "GET ",
        "GET  /x HTTP/1.1",
        "GET ?q=1 HTTP/1.1",
        #"\x16\x03\x01\x02\x00\x01\x00\x01\xFC\x03\x03"#,
    ])
    func noPathInJunk(_ request: String) {
        #expect(Self.path(of: request) == nil)
    }

    @Test(arguments: [
        ("/api/v2/me", "/api/v2/me"),
        ("/api/v2/me?x=1", "/api/v2/me"),
        ("/a?b?c", "/a"),
        ("/", "/"),
    ])
    func pathOfURI(uri: String, path: String) {
        #expect(Self.path(ofURI: uri) == path)
    }

    @Test func noPathInAnEmptyURI() {
        #expect(Self.path(ofURI: "") == nil)
    }
}
