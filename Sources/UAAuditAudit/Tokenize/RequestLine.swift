import UAAuditInput

/// Picks the path out of a logged request line (`GET /api/v2/me?x=1 HTTP/1.1`).
enum RequestLine {
    /// The path of `request` (decoded bytes): the second space-separated word, without its query.
    /// Nil for junk that has no path (a TLS handshake, an empty request).
    @inline(__always)
    static func path(of request: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
        guard let base = request.baseAddress,
            let space = Syscalls.memchr(base, 0x20, request.count)
        else { return nil }
        let start = space - base + 1
        var end = start
        while end < request.count {
            let b = request[end]
            if b == 0x20 || b == 0x3F { break }
            end += 1
        }
        guard end > start else { return nil }
        return UnsafeRawBufferPointer(start: base + start, count: end - start)
    }

    /// The path of a `$uri`/`$request_uri` value: everything before the query.
    @inline(__always)
    static func path(ofURI uri: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
        guard let base = uri.baseAddress, uri.count > 0 else { return nil }
        if let q = Syscalls.memchr(base, 0x3F, uri.count) {
            return q == UnsafeRawPointer(base) ? nil : UnsafeRawBufferPointer(start: base, count: q - base)
        }
        return uri
    }
}
