import Foundation
import Testing

@testable import UAAuditCore

/// Answers read piece by piece: lengths, chunks, the 64 KiB cut, and what is not HTTP.
@Suite struct HTTPWireTests {
    func read(_ pieces: [String], limit: Int = 64 << 10) throws -> HTTPResponse {
        var reader = HTTPWire.Reader(limit: limit)
        for piece in pieces where !reader.complete { try reader.feed(Array(piece.utf8)) }
        return try reader.closed()
    }

    @Test func aContentLengthAnswerInPieces() throws {
        let r = try read(["HTTP/1.1 200 OK\r\nContent-Le", "ngth: 5\r\nX-A: b\r\n\r\nhel", "lo"])
        #expect(r.status == 200)
        #expect(String(decoding: r.body, as: UTF8.self) == "hello")
        #expect(r.headers["x-a"] == "b")
        #expect(!r.truncated)
    }

    /// `100 Continue` and `102 Processing` before the final answer are skipped, in one piece or
    /// split anywhere; the final answer's status, headers and body are the ones read.
    @Test(arguments: [1, 7, 40])
    func interimAnswersAreSkipped(split: Int) throws {
        let text =
            "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 102 Processing\r\nX-A: interim\r\n\r\n"
            + "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"
        let bytes = Array(text)
        let pieces = stride(from: 0, to: bytes.count, by: split).map {
            String(bytes[$0..<min($0 + split, bytes.count)])
        }
        var reader = HTTPWire.Reader(limit: 64 << 10)
        for piece in pieces where !reader.complete { try reader.feed(Array(piece.utf8)) }
        let r = try reader.closed()
        #expect(r.status == 200)
        #expect(r.headers == ["content-length": "2"])
        #expect(String(decoding: r.body, as: UTF8.self) == "ok")
        #expect(reader.interim == 2)
    }

    /// Interim answers are bounded: more than 8, or heads over 64 KiB in all, are an error.
    @Test func endlessInterimAnswersAreAnError() {
        let nine = String(repeating: "HTTP/1.1 102 Processing\r\n\r\n", count: 9) + "HTTP/1.1 200 OK\r\n\r\n"
        #expect(throws: HTTPWire.Problem.malformed("more than 8 interim (1xx) answers")) { try read([nine]) }
        let padded = "HTTP/1.1 100 Continue\r\nX-Pad: " + String(repeating: "p", count: 40_000) + "\r\n\r\n"
        #expect(throws: HTTPWire.Problem.malformed("answer headers over 65536 bytes")) {
            try read([padded, padded, "HTTP/1.1 200 OK\r\n\r\n"])
        }
    }

    @Test func aChunkedAnswer() throws {
        let r = try read([
            "HTTP/1.1 500 Err\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nab", "cd\r\n3;x=y\r\nefg\r\n0\r\n\r\n",
        ])
        #expect(r.status == 500)
        #expect(String(decoding: r.body, as: UTF8.self) == "abcdefg")
    }

    @Test func aBodyPastTheLimitIsCutThere() throws {
        var reader = HTTPWire.Reader(limit: 10)
        try reader.feed(Array("HTTP/1.1 200 OK\r\nContent-Length: 1000000\r\n\r\n0123456789abcdef".utf8))
        #expect(reader.complete)
        let r = try reader.closed()
        #expect(String(decoding: r.body, as: UTF8.self) == "0123456789")
        #expect(r.truncated)
    }

    @Test func aBodyWithoutALengthEndsWithTheConnection() throws {
        let r = try read(["HTTP/1.0 302 Found\r\nLocation: /x\r\n\r\nmoved"])
        #expect(r.status == 302)
        #expect(r.headers["location"] == "/x")
        #expect(String(decoding: r.body, as: UTF8.self) == "moved")
    }

    @Test(arguments: ["SSH-2.0-OpenSSH\r\n\r\n", "HTTP/1.1 abc OK\r\n\r\n"])
    func notHTTPIsAnError(text: String) {
        #expect(throws: HTTPWire.Problem.malformed("not an HTTP answer")) { _ = try read([text]) }
    }

    @Test func headersOverTheLimitAreAnError() {
        var reader = HTTPWire.Reader(limit: 10)
        #expect(throws: HTTPWire.Problem.malformed("answer headers over 65536 bytes")) {
            try reader.feed(Array(("HTTP/1.1 200 OK\r\nX: " + String(repeating: "a", count: 70_000)).utf8))
        }
    }

    @Test func theRequestCarriesLengthHostAndNoInjectedHeader() {
        let request = HTTPRequest(
            url: URL(string: "http://h:8080/p?q=1")!, body: Array("{}".utf8),
            headers: ["Content-Type": "application/json", "User-Agent": "ua\r\nX-Evil: 1"])
        let text = String(decoding: HTTPWire.request(request, host: "h", port: 8080, target: "/p?q=1"), as: UTF8.self)
        #expect(
            text
                == "POST /p?q=1 HTTP/1.1\r\nHost: h:8080\r\nContent-Type: application/json\r\nUser-Agent: uaX-Evil: 1\r\n"
                + "Content-Length: 2\r\nConnection: close\r\n\r\n{}")
    }
}
