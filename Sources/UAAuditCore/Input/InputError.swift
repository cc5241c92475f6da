/// Why an input could not be read (to the end).
public struct InputError: Error, Equatable, CustomStringConvertible {
    public let path: String
    public let reason: String
    /// The input offset (compressed, for gzip) at which reading failed, if known.
    public let offset: Int64?

    public init(path: String, reason: String, offset: Int64? = nil) {
        self.path = path
        self.reason = reason
        self.offset = offset
    }

    public var description: String {
        if let offset { return "\(path): \(reason) (at byte \(offset))" }
        return "\(path): \(reason)"
    }
}
