/// Why an input could not be read (to the end).
package struct InputError: Error, Equatable, CustomStringConvertible {
    package let path: String
    package let reason: String
    /// The input offset (compressed, for gzip) at which reading failed, if known.
    package let offset: Int64?

    package init(path: String, reason: String, offset: Int64? = nil) {
        self.path = path
        self.reason = reason
        self.offset = offset
    }

    package var description: String {
        if let offset { return "\(path): \(reason) (at byte \(offset))" }
        return "\(path): \(reason)"
    }
}
