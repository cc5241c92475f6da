import COpenSSL

/// TLS over a ``SocketConnection``, with OpenSSL's libssl: the server's certificate is
/// checked against the system's CA store (or `caFile`) and its name (or IP address), TLS 1.2
/// at least, SNI sent. Every step waits with the connection's deadline, so the handshake
/// counts against the attempt's timeout like the rest.
final class TLSStream {
    private let connection: SocketConnection
    private let context: OpaquePointer
    private let ssl: OpaquePointer

    init(over connection: SocketConnection, host: String, caFile: String?) throws(SocketConnection.Failure) {
        self.connection = connection
        guard let context = SSL_CTX_new(TLS_client_method()) else { throw .other("TLS: no context") }
        self.context = context
        guard let ssl = SSL_new(context) else {
            SSL_CTX_free(context)
            throw .other("TLS: no session")
        }
        self.ssl = ssl
        _ = uaaudit_ssl_ctx_min_tls12(context)
        SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nil)
        // A server that closes without close_notify has still sent its whole answer.
        _ = SSL_CTX_set_options(context, uaaudit_ssl_op_ignore_unexpected_eof())
        let loaded =
            caFile.map { SSL_CTX_load_verify_locations(context, $0, nil) } ?? SSL_CTX_set_default_verify_paths(context)
        guard loaded == 1 else { throw .other("TLS: cannot load the CA certificates") }
        // SSL_new copied the context's settings before they were made: apply them to the session.
        SSL_set_verify(ssl, SSL_VERIFY_PEER, nil)
        _ = SSL_set_SSL_CTX(ssl, context)
        guard SSL_set_fd(ssl, connection.fd) == 1 else { throw .other("TLS: cannot attach the socket") }
        let isAddress = host.contains(":") || host.allSatisfy { $0.isNumber || $0 == "." }
        if isAddress {
            guard X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), host) == 1 else {
                throw .other("TLS: bad address \(host)")
            }
        } else {
            _ = uaaudit_ssl_set_sni(ssl, host)
            guard SSL_set1_host(ssl, host) == 1 else { throw .other("TLS: bad host name") }
        }
        while true {
            let result = SSL_connect(ssl)
            if result == 1 { return }
            try step(result, what: "handshake")
        }
    }

    deinit {
        SSL_free(ssl)
        SSL_CTX_free(context)
    }

    /// Waits for what OpenSSL wants, or throws what went wrong.
    private func step(_ result: Int32, what: String) throws(SocketConnection.Failure) {
        switch SSL_get_error(ssl, result) {
        case SSL_ERROR_WANT_READ: try connection.wait(readable: true)
        case SSL_ERROR_WANT_WRITE: try connection.wait(readable: false)
        default:
            let verify = SSL_get_verify_result(ssl)
            if verify != X509_V_OK {
                throw .certificate(String(cString: X509_verify_cert_error_string(verify)))
            }
            let code = ERR_get_error()
            var text = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &text, text.count)
            ERR_clear_error()
            throw .other(
                "TLS \(what) failed: \(String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))"
            )
        }
    }

    func write(_ bytes: [UInt8]) throws(SocketConnection.Failure) {
        var sent = 0
        while sent < bytes.count {
            var written = 0
            let result = bytes.withUnsafeBytes { SSL_write_ex(ssl, $0.baseAddress! + sent, $0.count - sent, &written) }
            if result == 1 {
                sent += written
            } else {
                try step(result, what: "write")
            }
        }
    }

    /// What is there (at most `limit` bytes), waiting until the deadline; empty at the end.
    func read(limit: Int) throws(SocketConnection.Failure) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: max(limit, 1))
        while true {
            var count = 0
            let result = buffer.withUnsafeMutableBytes { SSL_read_ex(ssl, $0.baseAddress, $0.count, &count) }
            if result == 1 { return Array(buffer.prefix(count)) }
            if SSL_get_error(ssl, result) == SSL_ERROR_ZERO_RETURN { return [] }
            try step(result, what: "read")
        }
    }
}
