import UAAuditInput

/// Whether `run` may follow a live log that is a symbolic link (issue 31, CONTRACTS "Files, as
/// root"): only a link that root or the caller owns, each link of a chain alike; a link the
/// caller owns (not root) only to a file that the caller or root owns. Anyone who may write
/// the log's directory could otherwise point `access.log` at `/etc/shadow`, and root's run
/// would copy its first lines into the report's samples. A link root owns is root's own
/// choice, whoever owns its target (cronolog's dated files belong to the web server's user).
enum LiveLogLink {
    /// Why the live log at `path` may not be followed, or nil (not a link, or links that may be).
    /// Its directories are checked the same way: a directory on the way that another user's link
    /// stands for (`logs -> /root/secret`) chooses what is read as much as the log's own link.
    static func refusal(_ path: String) -> String? {
        let caller = UInt32(Syscalls.effectiveUserID())
        var current = path
        for _ in 0..<40 {
            if let directory = untrustedDirectoryLink(on: current, caller: caller) { return directory }
            guard let link = try? Syscalls.linkStatus(current), link.isSymbolicLink else { return nil }
            guard link.owner == 0 || link.owner == caller else {
                return "is a symbolic link (\(current)) owned by \(Syscalls.userName(link.owner)): run follows a "
                    + "live log's link only when root or the account running it owns it, since whoever owns it "
                    + "chooses what is read; make root own it (chown -h root \(current)) or give run the file itself"
            }
            guard let text = Syscalls.readLink(current) else { return nil }
            let next = text.hasPrefix("/") ? text : AtomicFile.parentDirectory(of: current) + "/" + text
            if link.owner != 0, let target = try? Syscalls.linkStatus(next), !target.isSymbolicLink,
                target.owner != link.owner, target.owner != 0
            {
                return "is a symbolic link (\(current)) to \(next), which is owned by "
                    + "\(Syscalls.userName(target.owner)), neither the link's owner (\(Syscalls.userName(link.owner))) "
                    + "nor root: run does not follow it; give run the file itself"
            }
            current = next
        }
        return "has too many symbolic links (a loop?)"
    }

    /// The first directory of `path` that is a symbolic link owned by neither root nor the
    /// caller, as a refusal; nil when there is none.
    static func untrustedDirectoryLink(on path: String, caller: UInt32) -> String? {
        var prefix = path.hasPrefix("/") ? "" : "."
        let components = path.split(separator: "/", omittingEmptySubsequences: true)
        for component in components.dropLast() {
            prefix += "/" + component
            guard let link = try? Syscalls.linkStatus(prefix), link.isSymbolicLink else { continue }
            if link.owner != 0 && link.owner != caller {
                return "is reached through a symbolic link (\(prefix)) owned by \(Syscalls.userName(link.owner)): "
                    + "run follows a link on a log's path only when root or the account running it owns it, since "
                    + "whoever owns it chooses what is read; make root own it (chown -h root \(prefix)) or give the "
                    + "real path"
            }
        }
        return nil
    }

    /// Why a rotated-files directory (`--rotated-dir`, given or resolved against the log's
    /// directory) may not be followed: a link on its path (itself included) that neither root
    /// nor the caller owns. Nil when it may.
    static func directoryRefusal(_ path: String) -> String? {
        let caller = UInt32(Syscalls.effectiveUserID())
        return untrustedDirectoryLink(on: path + "/x", caller: caller)
    }
}
