/// Where an output path (`--out`, `--html`, `--prom`) really writes: stdout, or a regular
/// file with every symbolic link on the way followed, so that the atomic rename replaces the
/// file a link points to and never the link itself (`--out /dev/stdout` once replaced the
/// machine's /dev/stdout link with a regular file).
package enum OutputPath: Equatable, Sendable {
    /// `-`, `/dev/stdout`, `/dev/fd/1`, `/proc/self/fd/1`, or a link that leads to one of them.
    case standardOutput
    /// A regular file (existing or to be created) at this path, which is no link.
    case file(String)

    /// Why a path cannot be written as an output file.
    package enum Problem: Error, Equatable, Sendable {
        /// It exists and is not a regular file; `via` is where its links led, when that is
        /// not the path given.
        case notARegularFile(FileKind, via: String?)
        /// More than ``maxLinks`` links in a row (a loop).
        case tooManyLinks
    }

    /// The paths that mean this process's stdout.
    package static let standardOutputNames: Set<String> = ["-", "/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"]
    static let maxLinks = 40

    package static func resolve(_ path: String) throws(Problem) -> OutputPath {
        var current = path
        for _ in 0...maxLinks {
            if standardOutputNames.contains(current) { return .standardOutput }
            guard let kind = Syscalls.fileKind(current, followingLinks: false) else { return .file(current) }
            switch kind {
            case .regular:
                return .file(current)
            case .symbolicLink:
                guard let link = Syscalls.readLink(current) else { return .file(current) }
                let next = link.hasPrefix("/") ? link : directory(of: current) + "/" + link
                let followed = Syscalls.fileKind(current, followingLinks: true)
                if standardOutputNames.contains(next) || Syscalls.fileKind(next, followingLinks: false) != nil
                    || followed == nil
                {
                    current = next  // a link to follow, or a dangling one: its target is created
                    continue
                }
                // A /proc "magic" link (`pipe:[…]`): only following it tells what it is.
                if followed == .regular, let real = Syscalls.realPath(current) { return .file(real) }
                throw .notARegularFile(followed ?? .other, via: current == path ? nil : current)
            default:
                throw .notARegularFile(kind, via: current == path ? nil : current)
            }
        }
        throw .tooManyLinks
    }

    private static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "" : String(path[..<slash])
    }
}
