import UAAuditInput

/// Secret-bearing files that every user of the machine may read: a webhook URL lets anyone post
/// to the channel, and a signing secret lets anyone sign as uaaudit. Said once per run (a
/// warning: the alert still goes out), with the chmod that ends it.
package enum SecretExposure {
    /// Warnings for `channels`' URL and secret files readable by others, and for `config` (the
    /// config file's path) when a channel there holds its URL or secret inline and the config is
    /// readable by others.
    package static func warnings(channels: [AlertChannel], config: String? = nil) -> [String] {
        var out: [String] = []
        var seen: Set<String> = []
        func check(_ path: String, holds what: String) {
            guard seen.insert(path).inserted, let mode = worldReadableMode(path) else { return }
            out.append(
                "\(path) holds \(what) and every user of this machine may read it (mode \(mode)): "
                    + "chmod 640 \(path) (group adm lets the uaaudit account read it), or 600")
        }
        for channel in channels {
            if case .file(let path) = channel.url { check(path, holds: "a webhook URL") }
            if case .file(let path)? = channel.secret { check(path, holds: "a signing secret") }
        }
        if let config {
            let inline = channels.contains { channel in
                if case .literal = channel.url { return true }
                if case .literal? = channel.secret { return true }
                return false
            }
            if inline { check(config, holds: "a webhook URL or secret inline") }
        }
        return out
    }

    /// A warning when the client salt file (``ClientSalt``) is readable by every user: with the
    /// salt, a report's client ids and hashed examples can be matched to addresses.
    package static func warning(saltFile path: String?) -> [String] {
        guard let path, let mode = worldReadableMode(path) else { return [] }
        return [
            "\(path) holds the client salt and every user of this machine may read it (mode \(mode)): "
                + "chmod 640 \(path) (group adm lets the uaaudit account read it), or 600"
        ]
    }

    /// The file's mode in octal when others may read it; nil otherwise (or when it is not there).
    static func worldReadableMode(_ path: String) -> String? {
        guard let status = try? Syscalls.status(path), status.permissions & 0o004 != 0 else { return nil }
        return "0" + String(status.permissions, radix: 8)
    }
}
