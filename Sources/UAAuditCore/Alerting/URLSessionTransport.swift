import Dispatch
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// ``HTTPTransport`` over URLSession (on Linux, FoundationNetworking on the system libcurl), for
/// `https://` (``SocketHTTPTransport`` has `http://`).
///
/// Known limit: FoundationNetworking hands the answer to the delegate on another queue while
/// libcurl goes on reading, so a fast server's huge answer is buffered (tens of MB on
/// loopback) before the cancel at 64 KiB takes effect; only the 64 KiB are kept.
///
/// Synchronous: the calling thread waits for the answer or the deadline. Nothing is cached and
/// no cookie is kept. Only the system's CA bundle is trusted.
///
/// - Redirects are never followed: a 3xx comes back as the answer (a followed 301/302 would
///   turn the POST into a GET without a body, and a 307/308 was seen to resend an empty one).
/// - At most ``HTTPTransport/answerLimit`` bytes of the answer are kept; past that the
///   transfer is cancelled and the answer returned as `truncated`.
/// - The whole attempt, connection to last byte, ends at the deadline: the calling thread
///   waits on a semaphore until `timeout` and cancels the task then. (FoundationNetworking
///   hands libcurl whole seconds, rounded down, and its limit is between two bytes, not for
///   the whole answer: a server dripping a byte a second never timed out.)
package struct URLSessionTransport: HTTPTransport {
    package init() {}

    package func send(_ request: HTTPRequest, timeout: Double) -> Result<HTTPResponse, TransportError> {
        let configuration = URLSessionConfiguration.ephemeral
        let looser = timeout.rounded(.up) + 1
        configuration.timeoutIntervalForRequest = looser
        configuration.timeoutIntervalForResource = looser
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        let collector = Collector(limit: Self.answerLimit)
        let session = URLSession(configuration: configuration, delegate: collector, delegateQueue: nil)
        defer { session.invalidateAndCancel() }

        var urlRequest = URLRequest(
            url: request.url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: looser)
        urlRequest.httpMethod = "POST"
        urlRequest.httpBody = Data(request.body)
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }

        let task = session.dataTask(with: urlRequest)
        task.resume()
        if collector.done.wait(timeout: .now() + timeout) == .timedOut {
            // Settled as a timeout before the cancel, whose own completion then changes nothing
            // (an answer that raced the deadline and got there first counts).
            collector.timedOut()
            task.cancel()
        }
        return collector.finished() ?? .failure(.connection("no answer"))
    }

    static func failure(_ error: any Error) -> TransportError {
        let code = (error as? URLError)?.code ?? URLError.Code(rawValue: (error as NSError).code) ?? .unknown
        switch code {
        case .timedOut:
            return .timeout
        case .cannotConnectToHost:
            return .connection("connection refused")
        case .cannotFindHost, .dnsLookupFailed:
            return .connection("host not found")
        case .networkConnectionLost:
            return .connection("connection lost")
        case .notConnectedToInternet:
            return .connection("no network")
        case .badURL, .unsupportedURL, .cancelled, .secureConnectionFailed, .serverCertificateUntrusted,
            .serverCertificateHasBadDate, .serverCertificateHasUnknownRoot, .serverCertificateNotYetValid,
            .clientCertificateRejected, .clientCertificateRequired:
            return .permanent("URL error \(code.rawValue) (TLS or URL)")
        default:
            return .connection("URL error \(code.rawValue)")
        }
    }

    static func response(_ http: HTTPURLResponse, body: [UInt8], truncated: Bool) -> HTTPResponse {
        var headers: [String: String] = [:]
        for (key, value) in http.allHeaderFields {
            if let key = key as? String, let value = value as? String { headers[key] = value }
        }
        var response = HTTPResponse(status: http.statusCode, headers: headers, body: body)
        response.truncated = truncated
        return response
    }

    /// The session's delegate: refuses redirects, keeps the answer up to the limit, and hands
    /// the result to the waiting thread (the lock orders the two).
    private final class Collector: NSObject, URLSessionDataDelegate, @unchecked Sendable {
        let limit: Int
        let done = DispatchSemaphore(value: 0)
        private let lock = NSLock()
        private var response: HTTPURLResponse?
        private var body: [UInt8] = []
        private var result: Result<HTTPResponse, TransportError>?

        init(limit: Int) { self.limit = limit }

        func timedOut() { finish(.failure(.timeout)) }

        func finished() -> Result<HTTPResponse, TransportError>? {
            lock.withLock { result }
        }

        private func finish(_ value: Result<HTTPResponse, TransportError>) {
            let first = lock.withLock {
                guard result == nil else { return false }
                result = value
                return true
            }
            if first { done.signal() }
        }

        func urlSession(
            _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
            newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
        ) {
            completionHandler(nil)
        }

        func urlSession(
            _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
            completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
        ) {
            lock.withLock { self.response = response as? HTTPURLResponse }
            completionHandler(.allow)
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            let (full, http, kept): (Bool, HTTPURLResponse?, [UInt8]) = lock.withLock {
                let room = limit - body.count
                if data.count > room {
                    body += data.prefix(max(room, 0))
                    return (true, response ?? dataTask.response as? HTTPURLResponse, body)
                }
                body += data
                return (false, nil, [])
            }
            guard full else { return }
            if let http {
                finish(.success(URLSessionTransport.response(http, body: kept, truncated: true)))
            } else {
                finish(.failure(.connection("not an HTTP answer")))
            }
            dataTask.cancel()
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            if let error {
                finish(.failure(URLSessionTransport.failure(error)))
                return
            }
            let (http, kept) = lock.withLock { (response ?? task.response as? HTTPURLResponse, body) }
            guard let http else {
                finish(.failure(.connection("not an HTTP answer")))
                return
            }
            finish(.success(URLSessionTransport.response(http, body: kept, truncated: false)))
        }
    }
}
