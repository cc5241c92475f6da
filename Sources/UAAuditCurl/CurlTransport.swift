import CCurl
import FoundationEssentials
import Glibc
import UAAuditRun

/// ``HTTPTransport`` on libcurl (the one file that imports `CCurl`; libcurl is loaded on the
/// first delivery, not linked): one POST per handle, no
/// redirect followed (a 3xx is the answer), at most ``HTTPTransport/answerLimit`` bytes of the
/// answer kept (the write callback stops the transfer there, so the rest is never read), and
/// the whole attempt, name resolution to last byte, ended at `timeout` to the millisecond by
/// libcurl's `CURLOPT_TIMEOUT_MS`.
///
/// Proxies come from the usual environment variables, as libcurl reads them (`http_proxy`,
/// `https_proxy` or `HTTPS_PROXY`, `no_proxy`); certificates are checked against the system's
/// CA store (`caFile` replaces it, for the tests). Interim answers (`100 Continue`,
/// `102 Processing`, `103 Early Hints`) are skipped by libcurl; the headers kept are the final
/// answer's. Credentials in the URL are never handed to libcurl: the dispatcher sends them as
/// its own `Authorization` header, which is never shown.
package struct CurlTransport: HTTPTransport {
    /// The CA certificates to trust instead of the system's (tests only).
    let caFile: String?

    package init() { self.caFile = nil }

    package init(caFile: String?) { self.caFile = caFile }

    package func send(_ request: HTTPRequest, timeout: Double) -> Result<HTTPResponse, TransportError> {
        send(request, timeout: timeout, abort: { false })
    }

    package func send(_ request: HTTPRequest, timeout: Double, abort: @escaping @Sendable () -> Bool)
        -> Result<HTTPResponse, TransportError>
    {
        let api: UnsafePointer<uaaudit_curl_api>
        switch Self.library {
        case .success(let library): api = UnsafePointer(library.api)
        case .failure(let error): return .failure(error)
        }
        guard var parts = URLComponents(url: request.url, resolvingAgainstBaseURL: false),
            let scheme = parts.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = parts.host, !host.isEmpty
        else { return .failure(.permanent("not an http:// or https:// URL with a host")) }
        parts.user = nil
        parts.password = nil
        parts.fragment = nil
        guard let target = parts.url?.absoluteString else { return .failure(.permanent("not a URL libcurl takes")) }
        // libcurl writes its message here during the transfer: memory that outlives the handle.
        let errorText = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        errorText.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        defer { errorText.deallocate() }
        guard let easy = api.pointee.easy_init() else { return .failure(.permanent("libcurl: no handle")) }
        defer { api.pointee.easy_cleanup(easy) }
        let transfer = Transfer(limit: Self.answerLimit, abort: abort)
        let user = Unmanaged.passUnretained(transfer).toOpaque()
        var headers: UnsafeMutablePointer<curl_slist>?
        defer { api.pointee.slist_free_all(headers) }
        for (name, value) in request.headers.sorted(by: { $0.key < $1.key })
        where !["host", "content-length", "connection", "expect"].contains(name.lowercased()) {
            // No line break may end the header early ("\r\n" is one Character: filter scalars).
            let clean = String(String.UnicodeScalarView(value.unicodeScalars.filter { $0 != "\r" && $0 != "\n" }))
            headers = api.pointee.slist_append(headers, "\(name): \(clean)")
        }
        // No `Expect: 100-continue` wait before a body over 1 KiB: send it at once.
        headers = api.pointee.slist_append(headers, "Expect:")
        let milliseconds = max(1, Int((timeout * 1000).rounded(.up)))
        var setup = CURLE_OK
        func set(_ code: CURLcode) { if setup == CURLE_OK { setup = code } }
        set(uaaudit_curl_set_pointer(api, easy, CURLOPT_URL, target))
        set(uaaudit_curl_set_long(api, easy, CURLOPT_POST, 1))
        set(uaaudit_curl_set_offset(api, easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(request.body.count)))
        // libcurl copies the body; an empty one must still be a pointer (NULL would make it
        // read the body from stdin).
        let body = request.body.isEmpty ? [0] : request.body
        set(body.withUnsafeBytes { uaaudit_curl_set_pointer(api, easy, CURLOPT_COPYPOSTFIELDS, $0.baseAddress) })
        set(uaaudit_curl_set_pointer(api, easy, CURLOPT_HTTPHEADER, headers))
        set(uaaudit_curl_set_long(api, easy, CURLOPT_FOLLOWLOCATION, 0))
        set(uaaudit_curl_set_long(api, easy, CURLOPT_TIMEOUT_MS, milliseconds))
        set(uaaudit_curl_set_long(api, easy, CURLOPT_CONNECTTIMEOUT_MS, milliseconds))
        set(uaaudit_curl_set_long(api, easy, CURLOPT_NOSIGNAL, 1))
        set(uaaudit_curl_set_pointer(api, easy, CURLOPT_PROTOCOLS_STR, "http,https"))
        set(uaaudit_curl_set_long(api, easy, CURLOPT_SSL_VERIFYPEER, 1))
        set(uaaudit_curl_set_long(api, easy, CURLOPT_SSL_VERIFYHOST, 2))
        set(uaaudit_curl_set_long(api, easy, CURLOPT_SSLVERSION, CURL_SSLVERSION_TLSv1_2))
        if let caFile { set(uaaudit_curl_set_pointer(api, easy, CURLOPT_CAINFO, caFile)) }
        set(uaaudit_curl_set_data_callback(api, easy, CURLOPT_WRITEFUNCTION, Transfer.onBody))
        set(uaaudit_curl_set_pointer(api, easy, CURLOPT_WRITEDATA, user))
        set(uaaudit_curl_set_data_callback(api, easy, CURLOPT_HEADERFUNCTION, Transfer.onHeader))
        set(uaaudit_curl_set_pointer(api, easy, CURLOPT_HEADERDATA, user))
        set(uaaudit_curl_set_long(api, easy, CURLOPT_NOPROGRESS, 0))
        set(uaaudit_curl_set_xferinfo_callback(api, easy, Transfer.onProgress))
        set(uaaudit_curl_set_pointer(api, easy, CURLOPT_XFERINFODATA, user))
        set(uaaudit_curl_set_pointer(api, easy, CURLOPT_ERRORBUFFER, errorText))
        guard setup == CURLE_OK else {
            return .failure(.permanent("libcurl: \(Self.text(api.pointee.easy_strerror(setup)))"))
        }

        let code = withExtendedLifetime(transfer) { Self.perform(easy, transfer: transfer, api: api.pointee) }
        let detail = String(cString: errorText)
        let reason = detail.isEmpty ? Self.text(api.pointee.easy_strerror(code)) : detail
        switch code {
        case CURLE_OK:
            break
        case CURLE_WRITE_ERROR where transfer.truncated:
            break
        case CURLE_WRITE_ERROR where transfer.headerBytes > Self.headLimit:
            return .failure(.connection("answer headers over \(Self.headLimit) bytes"))
        case CURLE_OPERATION_TIMEDOUT:
            return .failure(.timeout)
        case CURLE_ABORTED_BY_CALLBACK:
            return .failure(.aborted)
        case CURLE_COULDNT_CONNECT:
            var osError = 0
            _ = uaaudit_curl_get_long(api, easy, CURLINFO_OS_ERRNO, &osError)
            return .failure(.connection(osError == Int(ECONNREFUSED) ? "connection refused" : reason))
        case CURLE_COULDNT_RESOLVE_HOST:
            return .failure(.connection("host not found"))
        case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_CERTPROBLEM:
            // libcurl's words without its prefix ("self-signed certificate"); a certificate for
            // another name in the words OpenSSL uses and the delivery hint looks for.
            let problem = "SSL certificate problem: "
            var why = reason.hasPrefix(problem) ? String(reason.dropFirst(problem.count)) : reason
            if reason.contains("target host name") {
                let isAddress = host.contains(":") || host.allSatisfy { $0.isNumber || $0 == "." }
                why = isAddress ? "IP address mismatch" : "hostname mismatch"
            }
            return .failure(.permanent("TLS certificate refused: \(why)"))
        case CURLE_UNSUPPORTED_PROTOCOL, CURLE_URL_MALFORMAT:
            return .failure(.permanent(reason))
        default:
            return .failure(.connection(reason))
        }
        var status = 0
        _ = uaaudit_curl_get_long(api, easy, CURLINFO_RESPONSE_CODE, &status)
        guard status > 0 else { return .failure(.connection("no HTTP status in the answer")) }
        var response = HTTPResponse(status: status, headers: transfer.headers, body: transfer.body)
        response.truncated = transfer.truncated
        return .success(response)
    }

    /// The most an answer's status line and headers may take, interim answers included.
    static let headLimit = 64 << 10

    /// libcurl's function table, loaded on the first delivery (see `CCurl`'s shim.h for why not
    /// at start-up) and `curl_global_init` called, once per process: a static `let` is
    /// initialised once, thread-safely. A machine without libcurl gets a delivery failure that
    /// says what to install.
    private static let library: Result<Library, TransportError> = {
        let api = UnsafeMutablePointer<uaaudit_curl_api>.allocate(capacity: 1)
        api.initialize(to: uaaudit_curl_api())
        var error: UnsafePointer<CChar>?
        guard uaaudit_curl_load(api, &error) != 0 else {
            let why = error.map { String(cString: $0) } ?? "unknown error"
            return .failure(.permanent("cannot load libcurl (install Debian's libcurl4, 7.85.0 or newer): \(why)"))
        }
        guard api.pointee.global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK else {
            return .failure(.permanent("libcurl could not be initialised"))
        }
        return .success(Library(api: api))
    }()

    /// The loaded table; never freed (the library stays loaded for the life of the process).
    private final class Library: @unchecked Sendable {
        let api: UnsafeMutablePointer<uaaudit_curl_api>
        init(api: UnsafeMutablePointer<uaaudit_curl_api>) { self.api = api }
    }

    /// Runs the transfer on a multi handle, polling at most ``DeliveryStop/pollInterval`` at a
    /// time, so that `abort` is asked that often even while nothing arrives (libcurl's own
    /// progress calls may be a second apart when the line is idle).
    private static func perform(_ easy: UnsafeMutableRawPointer, transfer: Transfer, api: uaaudit_curl_api)
        -> CURLcode
    {
        guard let multi = api.multi_init() else { return CURLE_FAILED_INIT }
        defer { _ = api.multi_cleanup(multi) }
        guard api.multi_add_handle(multi, easy) == CURLM_OK else { return CURLE_FAILED_INIT }
        defer { _ = api.multi_remove_handle(multi, easy) }
        let pollMilliseconds = Int32(DeliveryStop.pollInterval * 1000)
        var running: Int32 = 1
        while running > 0 {
            guard api.multi_perform(multi, &running) == CURLM_OK else { return CURLE_RECV_ERROR }
            if running == 0 { break }
            if transfer.abort() { return CURLE_ABORTED_BY_CALLBACK }
            guard api.multi_poll(multi, nil, 0, pollMilliseconds, nil) == CURLM_OK else { return CURLE_RECV_ERROR }
        }
        var left: Int32 = 0
        while let message = api.multi_info_read(multi, &left) {
            if message.pointee.msg == CURLMSG_DONE { return message.pointee.data.result }
        }
        return CURLE_RECV_ERROR
    }

    private static func text(_ pointer: UnsafePointer<CChar>?) -> String {
        pointer.map { String(cString: $0) } ?? "unknown libcurl error"
    }

    /// What one transfer has received, filled by libcurl's callbacks (on the calling thread).
    private final class Transfer {
        let limit: Int
        let abort: @Sendable () -> Bool
        var headers: [String: String] = [:]
        var headerBytes = 0
        var body: [UInt8] = []
        var truncated = false

        init(limit: Int, abort: @escaping @Sendable () -> Bool) {
            self.limit = limit
            self.abort = abort
            body.reserveCapacity(4096)
        }

        static func from(_ user: UnsafeMutableRawPointer?) -> Transfer {
            Unmanaged<Transfer>.fromOpaque(user!).takeUnretainedValue()
        }

        /// Keeps the body up to `limit`; past it, keeps what fits and stops the transfer
        /// (returning less than given makes libcurl end it with `CURLE_WRITE_ERROR`).
        static let onBody: uaaudit_curl_data_callback = { data, size, count, user in
            let transfer = Transfer.from(user)
            let length = size * count
            let room = transfer.limit - transfer.body.count
            let taken = min(length, room)
            if taken > 0, let data {
                data.withMemoryRebound(to: UInt8.self, capacity: taken) {
                    transfer.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: taken))
                }
            }
            if taken < length {
                transfer.truncated = true
                return 0
            }
            return length
        }

        /// One header line; a status line starts a new answer (an interim one is replaced by
        /// the final one). Headers over ``CurlTransport/headLimit`` in all stop the transfer.
        static let onHeader: uaaudit_curl_data_callback = { data, size, count, user in
            let transfer = Transfer.from(user)
            let length = size * count
            transfer.headerBytes += length
            if transfer.headerBytes > CurlTransport.headLimit { return 0 }
            guard let data else { return length }
            let line = data.withMemoryRebound(to: UInt8.self, capacity: length) {
                String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
            }
            if line.hasPrefix("HTTP/") {
                transfer.headers = [:]
            } else if let colon = line.firstIndex(of: ":") {
                let name = line[..<colon].trimmed().lowercased()
                transfer.headers[name] = line[line.index(after: colon)...].trimmed(newlines: true)
            }
            return length
        }

        /// Non-zero ends the transfer with `CURLE_ABORTED_BY_CALLBACK`.
        static let onProgress: uaaudit_curl_xferinfo_callback = { user, _, _, _, _ in
            Transfer.from(user).abort() ? 1 : 0
        }
    }
}
