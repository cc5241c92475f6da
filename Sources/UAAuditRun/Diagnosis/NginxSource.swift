import UAAuditInput

/// Where `doctor` reads nginx's configuration: from disk, or as `nginx -T` prints it (on
/// stdin, or as the CLI got it from running nginx).
package enum NginxSource: Sendable {
    /// The main nginx.conf; its includes are followed.
    case file(String)
    /// `nginx -T` output piped in.
    case standardInput
    /// `nginx -T` output already in hand.
    case dump([UInt8])

    /// The configuration; throws the error of the read or of the parse, as it is worded.
    package func load() throws -> NginxConfigTree {
        switch self {
        case .file(let path): try NginxConfigTree.load(path: path)
        case .standardInput: try NginxConfigTree.fromDump(try Syscalls.readToEnd(0))
        case .dump(let bytes): try NginxConfigTree.fromDump(bytes)
        }
    }
}
