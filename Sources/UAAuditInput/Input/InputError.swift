/// Why an input could not be read (to the end).
package struct InputError: Error, Equatable, CustomStringConvertible {
    package let path: String
    package let reason: String
    /// The input offset (compressed, for gzip) at which reading failed, if known.
    package let offset: Int64?
    /// True when the bytes read so far are not proven (gzip data that fails its check): lines
    /// they held that do not match the format may be the damage, not another format.
    package let unverified: Bool
    /// True when the cause may pass in a moment (a file of a rotation under way not given its
    /// owner and mode yet): `run` waits a little before it gives up.
    package let transient: Bool
    /// The errno of the open(2) that failed, when opening was what failed: callers tell a file
    /// gone (`ENOENT`) from one they may not open by it, never by the reason's words.
    package let openErrno: Int32?

    package init(
        path: String, reason: String, offset: Int64? = nil, unverified: Bool = false, transient: Bool = false,
        openErrno: Int32? = nil
    ) {
        self.path = path
        self.reason = reason
        self.offset = offset
        self.unverified = unverified
        self.transient = transient
        self.openErrno = openErrno
    }

    package var description: String {
        if let offset { return "\(path): \(reason) (at byte \(offset))" }
        return "\(path): \(reason)"
    }
}
