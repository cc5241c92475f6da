import Dispatch
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// ``HTTPTransport`` over URLSession (on Linux, FoundationNetworking on the system libcurl).
///
/// Synchronous: the calling thread waits for the answer or the timeout. Nothing is cached and
/// no cookie is kept. Only the system's CA bundle is trusted.
///
/// The timeout is kept here, not by URLSession: FoundationNetworking hands libcurl whole
/// seconds, rounded down, so 0.3 s timed out at once and 1.5 s after 1 s. URLSession gets a
/// looser limit, and the request is cancelled when the exact deadline passes.
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
        let session = URLSession(configuration: configuration)
        defer { session.finishTasksAndInvalidate() }

        var urlRequest = URLRequest(
            url: request.url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: looser)
        urlRequest.httpMethod = "POST"
        urlRequest.httpBody = Data(request.body)
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }

        let answer = Answer()
        let done = DispatchSemaphore(value: 0)
        let task = session.dataTask(with: urlRequest) { data, response, error in
            answer.result = Self.result(data: data, response: response, error: error)
            done.signal()
        }
        task.resume()
        if done.wait(timeout: .now() + timeout) == .timedOut {
            task.cancel()
            return .failure(.timeout)
        }
        return answer.result ?? .failure(.connection("no answer"))
    }

    static func result(data: Data?, response: URLResponse?, error: (any Error)?) -> Result<HTTPResponse, TransportError>
    {
        if let error {
            let code = (error as? URLError)?.code ?? URLError.Code(rawValue: (error as NSError).code) ?? .unknown
            switch code {
            case .timedOut:
                return .failure(.timeout)
            case .cannotConnectToHost:
                return .failure(.connection("connection refused"))
            case .cannotFindHost, .dnsLookupFailed:
                return .failure(.connection("host not found"))
            case .networkConnectionLost:
                return .failure(.connection("connection lost"))
            case .notConnectedToInternet:
                return .failure(.connection("no network"))
            case .badURL, .unsupportedURL, .cancelled, .secureConnectionFailed, .serverCertificateUntrusted,
                .serverCertificateHasBadDate, .serverCertificateHasUnknownRoot, .serverCertificateNotYetValid,
                .clientCertificateRejected, .clientCertificateRequired:
                return .failure(.permanent("URL error \(code.rawValue) (TLS or URL)"))
            default:
                return .failure(.connection("URL error \(code.rawValue)"))
            }
        }
        guard let http = response as? HTTPURLResponse else { return .failure(.connection("not an HTTP answer")) }
        var headers: [String: String] = [:]
        for (key, value) in http.allHeaderFields {
            if let key = key as? String, let value = value as? String { headers[key] = value }
        }
        return .success(HTTPResponse(status: http.statusCode, headers: headers, body: [UInt8](data ?? Data())))
    }

    /// The completion handler's result, handed to the waiting thread; the semaphore orders the two.
    private final class Answer: @unchecked Sendable {
        var result: Result<HTTPResponse, TransportError>?
    }
}
