import Foundation

/// ``HTTPTransport`` for `http://` URLs on a socket of its own (``SocketConnection``): one
/// POST, no redirect followed, at most ``HTTPTransport/answerLimit`` bytes of the answer read
/// (the rest is never received), and the whole attempt, connection to last byte, ended at
/// the deadline by `poll`.
package struct SocketHTTPTransport: HTTPTransport {
    package init() {}

    package func send(_ request: HTTPRequest, timeout: Double) -> Result<HTTPResponse, TransportError> {
        let deadline = SocketConnection.now() + timeout
        guard let parts = URLComponents(url: request.url, resolvingAgainstBaseURL: false),
            parts.scheme?.lowercased() == "http", let host = parts.host, !host.isEmpty
        else { return .failure(.permanent("not an http:// URL with a host")) }
        let port = parts.port ?? 80
        var target = parts.percentEncodedPath.isEmpty ? "/" : parts.percentEncodedPath
        if let query = parts.percentEncodedQuery { target += "?" + query }
        let shownHost = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        do throws(SocketConnection.Failure) {
            let connection = try SocketConnection(host: host, port: port, deadline: deadline)
            try connection.write(HTTPWire.request(request, host: shownHost, port: parts.port, target: target))
            var reader = HTTPWire.Reader(limit: Self.answerLimit)
            while !reader.complete {
                let bytes = try connection.read(limit: 16 << 10)
                if bytes.isEmpty { break }
                do {
                    try reader.feed(bytes)
                } catch {
                    return .failure(.connection(Self.describe(error)))
                }
            }
            do {
                return .success(try reader.closed())
            } catch {
                return .failure(.connection(Self.describe(error)))
            }
        } catch {
            switch error {
            case .timeout: return .failure(.timeout)
            case .refused: return .failure(.connection("connection refused"))
            case .hostNotFound: return .failure(.connection("host not found"))
            case .other(let reason): return .failure(.connection(reason))
            }
        }
    }

    private static func describe(_ problem: HTTPWire.Problem) -> String {
        switch problem {
        case .malformed(let what): return what
        }
    }
}

/// The transport uaaudit uses: its own socket for `http://`, URLSession for `https://`.
package struct WebhookTransport: HTTPTransport {
    let plain = SocketHTTPTransport()
    let tls = URLSessionTransport()

    package init() {}

    package func send(_ request: HTTPRequest, timeout: Double) -> Result<HTTPResponse, TransportError> {
        request.url.scheme?.lowercased() == "http"
            ? plain.send(request, timeout: timeout) : tls.send(request, timeout: timeout)
    }
}
