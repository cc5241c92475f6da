/// HTTP/1.1 on the wire, for ``SocketHTTPTransport``: the request's bytes, and an answer read
/// piece by piece that keeps at most `limit` bytes of its body.
enum HTTPWire {
    /// The most an answer's status line and headers may take, interim answers included.
    static let headLimit = 64 << 10
    /// The most interim answers (`100 Continue`, `102 Processing`, `103 Early Hints`) skipped
    /// before the final one.
    static let interimLimit = 8

    /// `POST` with `Content-Length` and `Connection: close`; `Host` from the URL.
    static func request(_ request: HTTPRequest, host: String, port: Int?, target: String) -> [UInt8] {
        var head = "POST \(target) HTTP/1.1\r\n"
        head += "Host: \(host)\(port.map { ":\($0)" } ?? "")\r\n"
        for (name, value) in request.headers.sorted(by: { $0.key < $1.key })
        where !["host", "content-length", "connection"].contains(name.lowercased()) {
            // No line break may end the header early ("\r\n" is one Character: filter scalars).
            let clean = String(String.UnicodeScalarView(value.unicodeScalars.filter { $0 != "\r" && $0 != "\n" }))
            head += "\(name): \(clean)\r\n"
        }
        head += "Content-Length: \(request.body.count)\r\nConnection: close\r\n\r\n"
        return Array(head.utf8) + request.body
    }

    enum Problem: Error, Equatable {
        /// Not an HTTP answer, or headers over ``headLimit``; says what.
        case malformed(String)
    }

    /// An answer read as it arrives.
    struct Reader {
        let limit: Int
        private var raw: [UInt8] = []
        private(set) var status: Int?
        private(set) var headers: [String: String] = [:]
        private(set) var body: [UInt8] = []
        /// Bytes of the body still expected (Content-Length), nil when it ends with the connection.
        private var remaining: Int?
        private var chunked = false
        private(set) var complete = false
        private(set) var truncated = false
        /// Interim (1xx) answers skipped so far, and the bytes of their heads.
        private(set) var interim = 0
        private var interimBytes = 0

        init(limit: Int) { self.limit = limit }

        /// Takes the next bytes; afterwards ``complete`` says whether the answer is all there
        /// (or the body reached the limit, ``truncated``).
        mutating func feed(_ bytes: [UInt8]) throws(Problem) {
            raw += bytes
            while status == nil {
                guard let end = Self.find([13, 10, 13, 10], in: raw) else {
                    if interimBytes + raw.count > headLimit {
                        throw .malformed("answer headers over \(headLimit) bytes")
                    }
                    return
                }
                if interimBytes + end + 4 > headLimit { throw .malformed("answer headers over \(headLimit) bytes") }
                try parseHead(Array(raw[..<end]))
                raw.removeFirst(end + 4)
                // An interim answer (100 Continue, 102 Processing, 103 Early Hints) is not the
                // answer: skip it and read the next head (101 would switch protocols: final).
                if let code = status, (100..<200).contains(code), code != 101 {
                    interim += 1
                    interimBytes += end + 4
                    if interim > HTTPWire.interimLimit {
                        throw .malformed("more than \(HTTPWire.interimLimit) interim (1xx) answers")
                    }
                    status = nil
                    headers = [:]
                    remaining = nil
                    chunked = false
                }
            }
            chunked ? try takeChunks() : takeBody()
        }

        /// The answer when the connection closed: a body without a length ends here.
        mutating func closed() throws(Problem) -> HTTPResponse {
            guard let status else { throw .malformed("the connection closed before an HTTP status line") }
            if !complete, !chunked, remaining == nil { complete = true }
            var response = HTTPResponse(status: status, headers: headers, body: body)
            response.truncated = truncated
            return response
        }

        private mutating func parseHead(_ head: [UInt8]) throws(Problem) {
            let lines = String(decoding: head, as: UTF8.self).components(separatedBy: "\r\n")
            let parts = lines[0].split(separator: " ", maxSplits: 2)
            guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let code = Int(parts[1]), (100...999).contains(code)
            else { throw .malformed("not an HTTP answer") }
            status = code
            for line in lines.dropFirst() {
                guard let colon = line.firstIndex(of: ":") else { continue }
                let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
                headers[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
            if headers["transfer-encoding"]?.lowercased().contains("chunked") == true {
                chunked = true
            } else if let length = headers["content-length"].flatMap({ Int($0) }), length >= 0 {
                remaining = length
            }
            if code == 204 || code == 304 { remaining = 0 }
        }

        private mutating func append(_ bytes: ArraySlice<UInt8>) {
            let room = limit - body.count
            if bytes.count > room {
                body += bytes.prefix(room)
                truncated = true
                complete = true
            } else {
                body += bytes
            }
        }

        private mutating func takeBody() {
            if let left = remaining {
                let taken = raw.prefix(left)
                append(taken)
                remaining = left - taken.count
                raw.removeAll()
                if remaining == 0 { complete = true }
            } else {
                append(raw[...])
                raw.removeAll()
            }
        }

        private mutating func takeChunks() throws(Problem) {
            while !complete {
                guard let lineEnd = Self.find([13, 10], in: raw) else { return }
                let sizeText = String(decoding: raw[..<lineEnd], as: UTF8.self).split(separator: ";").first ?? ""
                guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16), size >= 0 else {
                    throw .malformed("a bad chunk size in the answer")
                }
                if size == 0 {
                    complete = true
                    return
                }
                guard raw.count >= lineEnd + 2 + size + 2 else {
                    // Not all there yet; a chunk past the limit need not be waited for whole.
                    if body.count + (raw.count - lineEnd - 2) > limit {
                        append(raw[(lineEnd + 2)...])
                    }
                    return
                }
                append(raw[(lineEnd + 2)..<(lineEnd + 2 + size)])
                raw.removeFirst(lineEnd + 2 + size + 2)
            }
        }

        static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
            guard haystack.count >= needle.count else { return nil }
            for i in 0...(haystack.count - needle.count) where haystack[i] == needle[0] {
                if Array(haystack[i..<(i + needle.count)]) == needle { return i }
            }
            return nil
        }
    }
}
