/// Where an output path (`--out`, `--html`, `--prom`, the state, the lock) really writes:
/// stdout, or a regular file with every symbolic link on the way followed, so that the atomic
/// rename replaces the file a link points to and never the link itself (`--out /dev/stdout`
/// once replaced the machine's /dev/stdout link with a regular file).
///
/// A link is followed only where the kernel's `fs.protected_symlinks` would follow it, whatever
/// the sysctl says (it is 0 on some machines, and a rename never asks it): a link in a sticky,
/// world-writable directory (`/tmp`) is followed only when the caller or that directory's owner
/// owns it. Another user's link there (`/tmp/report.json -> /etc/ld.so.preload`) is
/// ``Problem/plantedLink(link:owner:directory:)``; this holds for every component of the path.
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
        /// A symbolic link in a sticky, world-writable directory, owned by neither the caller
        /// nor the directory's owner: another user may have planted it.
        case plantedLink(link: String, owner: UInt32, directory: String)
    }

    /// The paths that mean this process's stdout.
    package static let standardOutputNames: Set<String> = ["-", "/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"]
    static let maxLinks = 40

    package static func resolve(_ path: String) throws(Problem) -> OutputPath {
        var current = path
        for _ in 0...maxLinks {
            if standardOutputNames.contains(current) { return .standardOutput }
            if let planted = plantedLink(onDirectoriesOf: current) { throw planted }
            // One handle on what the name holds now: its kind, its owner and a link's target are
            // all read from it, so a name swapped between two looks is never half believed
            // (a regular file when checked, another user's link when followed).
            guard let node = Syscalls.openNode(current) else { return .file(current) }
            defer { Syscalls.close(node) }
            guard let status = try? Syscalls.fstatus(node) else { return .file(current) }
            if status.isRegular { return .file(current) }
            guard status.isSymbolicLink else {
                throw .notARegularFile(
                    status.isDirectory
                        ? .directory
                        : status.isFIFO
                            ? .fifo
                            : Syscalls.fileKind(current, followingLinks: false) ?? .other,
                    via: current == path ? nil : current)
            }
            if let planted = refusal(link: current, status: status) { throw planted }
            guard let link = Syscalls.readLink(handle: node) else { return .file(current) }
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
        }
        throw .tooManyLinks
    }

    /// The first link among `path`'s directories that the rule refuses.
    static func plantedLink(onDirectoriesOf path: String) -> Problem? {
        let parent = directory(of: path)
        return parent.isEmpty || parent == "." ? nil : plantedLink(on: parent)
    }

    /// The first link on `path` (its directories, then the path itself) that the rule refuses.
    package static func plantedLink(on path: String) -> Problem? {
        var prefix = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/", omittingEmptySubsequences: true) {
            prefix += "/" + component
            if let problem = refusedLink(prefix) { return problem }
        }
        return nil
    }

    /// `path` as a link the rule refuses, or nil (not a link, or one that may be followed).
    static func refusedLink(_ path: String) -> Problem? {
        guard let link = try? Syscalls.linkStatus(path), link.isSymbolicLink else { return nil }
        return refusal(link: path, status: link)
    }

    /// The link at `path`, whose own status is `link`, as the rule refuses it, or nil.
    static func refusal(link path: String, status link: FileStatus) -> Problem? {
        let parent = directory(of: path)
        let place = parent.isEmpty ? "/" : parent
        guard let directory = try? Syscalls.status(place), directory.isSticky, directory.permissions & 0o002 != 0
        else { return nil }
        let caller = UInt32(Syscalls.effectiveUserID())
        if link.owner == caller || link.owner == directory.owner { return nil }
        return .plantedLink(
            link: path.hasPrefix("./") ? String(path.dropFirst(2)) : path, owner: link.owner, directory: place)
    }

    private static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "" : String(path[..<slash])
    }
}
