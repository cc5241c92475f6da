import Foundation

/// ``HTTPTransport`` on a socket of its own (``SocketConnection``, with ``TLSStream`` for
/// `https://`): one POST, no redirect followed, at most ``HTTPTransport/answerLimit`` bytes of
/// the answer read (the rest is never received), and the whole attempt, name resolution,
/// connection, TLS handshake and last byte, ended at the deadline by `poll`.
package struct SocketHTTPTransport: HTTPTransport {
    /// The CA certificates to trust instead of the system's (tests only).
    let caFile: String?

    package init(caFile: String? = nil) { self.caFile = caFile }

    package func send(_ request: HTTPRequest, timeout: Double) -> Result<HTTPResponse, TransportError> {
        send(request, timeout: timeout, abort: { false })
    }

    package func send(_ request: HTTPRequest, timeout: Double, abort: @escaping @Sendable () -> Bool)
        -> Result<HTTPResponse, TransportError>
    {
        let deadline = SocketConnection.now() + timeout
        guard let parts = URLComponents(url: request.url, resolvingAgainstBaseURL: false),
            let scheme = parts.scheme?.lowercased(), scheme == "http" || scheme == "https", let host = parts.host,
            !host.isEmpty
        else { return .failure(.permanent("not an http:// or https:// URL with a host")) }
        let tls = scheme == "https"
        let port = parts.port ?? (tls ? 443 : 80)
        var target = parts.percentEncodedPath.isEmpty ? "/" : parts.percentEncodedPath
        if let query = parts.percentEncodedQuery { target += "?" + query }
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        let shownHost = bare.contains(":") ? "[\(bare)]" : bare
        do throws(SocketConnection.Failure) {
            let connection = try SocketConnection(host: bare, port: port, deadline: deadline, abort: abort)
            let stream = tls ? try TLSStream(over: connection, host: bare, caFile: caFile) : nil
            let bytes = HTTPWire.request(request, host: shownHost, port: parts.port, target: target)
            if let stream { try stream.write(bytes) } else { try connection.write(bytes) }
            var reader = HTTPWire.Reader(limit: Self.answerLimit)
            while !reader.complete {
                let piece: [UInt8]
                if let stream {
                    piece = try stream.read(limit: 16 << 10)
                } else {
                    piece = try connection.read(limit: 16 << 10)
                }
                if piece.isEmpty { break }
                do {
                    try reader.feed(piece)
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
            case .aborted: return .failure(.aborted)
            case .refused: return .failure(.connection("connection refused"))
            case .hostNotFound: return .failure(.connection("host not found"))
            case .certificate(let reason): return .failure(.permanent("TLS certificate refused: \(reason)"))
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

/// The transport uaaudit uses: ``SocketHTTPTransport`` for `http://` and `https://`.
package struct WebhookTransport: HTTPTransport {
    let socket = SocketHTTPTransport()

    package init() {}

    package func send(_ request: HTTPRequest, timeout: Double) -> Result<HTTPResponse, TransportError> {
        socket.send(request, timeout: timeout)
    }

    package func send(_ request: HTTPRequest, timeout: Double, abort: @escaping @Sendable () -> Bool)
        -> Result<HTTPResponse, TransportError>
    {
        socket.send(request, timeout: timeout, abort: abort)
    }
}
