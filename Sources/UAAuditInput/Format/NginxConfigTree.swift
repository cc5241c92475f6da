/// An nginx configuration as nginx reads it: the main file with its `include`s followed.
///
/// Includes are resolved relative to the main file's directory, globs expand in sorted order,
/// and a file that includes itself (directly or not) is an error. The configuration comes from
/// disk, or from `nginx -T` output (each file dumped after `# configuration file PATH:`).
package struct NginxConfigTree: Sendable {
    /// A directive and where it was written.
    package struct Located: Sendable, Equatable {
        package var words: [String]
        package var file: String
        package var line: Int
        /// The blocks it is in, outermost first (`http@FILE:LINE`, `server@FILE:LINE`), through
        /// the includes that brought it in.
        package var context: [String] = []
        /// The id of the block it opens (as its directives' `context` names it), if any.
        package var opens: String? = nil
        var place: String { "\(file):\(line)" }
    }

    /// An `access_log` directive.
    package struct AccessLog: Sendable, Equatable {
        /// The file, or `syslog:…`; nil for `access_log off`.
        package var path: String?
        /// The format it names; nginx's default is `combined`.
        package var formatName: String
        package var place: String
        /// An `http` block's log that each of its `server` blocks replaces with an access_log
        /// of its own (a level's access_log directives replace the ones it would inherit):
        /// nginx writes no request to it.
        package var replaced = false
    }

    /// A `log_format` directive, not yet compiled (a format without the UA is worth describing).
    package struct Definition: Sendable, Equatable {
        package var name: String
        package var string: String
        package var escape: EscapeMode
        /// `file:line`, or nil for nginx's predefined `combined`.
        package var place: String?
        /// Why the escape= parameter is not one nginx knows, if so.
        var problem: String?

        package func compile() throws -> LogFormat {
            if let problem { throw FormatError.configSyntax(path: place ?? "", line: 0, message: problem) }
            return try LogFormat(string, escape: escape, name: name)
        }
    }

    package let mainPath: String
    package let directives: [Located]
    /// The files read, main first, in the order nginx reads them.
    package var files: [String] {
        var seen: [String] = []
        for directive in directives where !seen.contains(directive.file) { seen.append(directive.file) }
        return seen
    }

    /// Every `log_format` (the first of a name wins: nginx refuses duplicates), then nginx's
    /// predefined `combined` unless the configuration defines it.
    package var definitions: [Definition] {
        var result: [Definition] = []
        for directive in directives where directive.words.first == "log_format" && directive.words.count >= 3 {
            let name = directive.words[1]
            guard !result.contains(where: { $0.name == name }) else { continue }
            var pieces = Array(directive.words.dropFirst(2))
            var escape = EscapeMode.default
            var problem: String?
            if let first = pieces.first, first.hasPrefix("escape="), pieces.count > 1 {
                let value = String(first.dropFirst("escape=".count))
                if let mode = EscapeMode(rawValue: value) {
                    escape = mode
                } else {
                    problem = "unknown escape parameter '\(value)' (expected default, json or none)"
                }
                pieces.removeFirst()
            }
            result.append(
                Definition(
                    name: name, string: pieces.joined(), escape: escape, place: directive.place, problem: problem))
        }
        if !result.contains(where: { $0.name == "combined" }) {
            result.append(Definition(name: "combined", string: BuiltinFormats.combined, escape: .default, place: nil))
        }
        return result
    }

    /// Reads the configuration at `path` and every file it includes.
    package static func load(path: String) throws(FormatError) -> NginxConfigTree {
        let reader = Reader(
            expand: { pattern in
                if pattern.contains(where: { "*?[".contains($0) }) { return Syscalls.glob(pattern) }
                return [pattern]
            },
            read: { file throws(FormatError) in
                do throws(InputError) {
                    return try FileBytes.readAll(path: file, limit: 16 << 20)
                } catch {
                    throw FormatError.unreadableConfig(path: file, reason: error.reason)
                }
            },
            identity: { Syscalls.realpath($0) ?? $0 })
        return NginxConfigTree(mainPath: path, directives: try reader.directives(of: path, stack: []))
    }

    /// Reads `nginx -T` output: the first dumped file is the main one.
    package static func fromDump(_ dump: [UInt8]) throws(FormatError) -> NginxConfigTree {
        let marker = Array("# configuration file ".utf8)
        var files: [(String, [UInt8])] = []
        for line in dump.split(separator: 0x0A, omittingEmptySubsequences: false) {
            if line.starts(with: marker), line.last == UInt8(ascii: ":") {
                files.append((String(decoding: line.dropFirst(marker.count).dropLast(), as: UTF8.self), []))
            } else if !files.isEmpty {
                files[files.count - 1].1 += line
                files[files.count - 1].1.append(0x0A)
            }
        }
        guard let main = files.first?.0 else {
            throw FormatError.configSyntax(
                path: "nginx -T output", line: 1, message: "no '# configuration file' line: is this nginx -T output?")
        }
        // A comment in a file can read like a header. A dumped file that nothing includes, or
        // one whose file ends inside a block, was such a comment: it goes back into the file it
        // was in, and the files are read again.
        while true {
            let opened = OpenedFiles()
            let fake: Int
            do {
                let tree = try read(files, main: main, opened: opened)
                guard let unread = files.indices.dropFirst().first(where: { !opened.names.contains(files[$0].0) })
                else { return tree }
                fake = unread
            } catch {
                guard case .configSyntax(let path, _, let message) = error, message.hasPrefix("unexpected end of file"),
                    let index = files.firstIndex(where: { $0.0 == path }), index + 1 < files.count
                else { throw error }
                fake = index + 1
            }
            files[fake - 1].1 += Array("# configuration file \(files[fake].0):\n".utf8) + files[fake].1
            files.remove(at: fake)
        }
    }

    /// The files a reading opened, in order.
    private final class OpenedFiles {
        var names: Set<String> = []
    }

    private static func read(_ files: [(String, [UInt8])], main: String, opened: OpenedFiles) throws(FormatError)
        -> NginxConfigTree
    {
        let table = Dictionary(files, uniquingKeysWith: { first, _ in first })
        let names = table.keys.sorted()
        let reader = Reader(
            expand: { pattern in names.filter { Syscalls.fnmatch(pattern, $0) } },
            read: { file throws(FormatError) in
                guard let bytes = table[file] else {
                    throw FormatError.unreadableConfig(path: file, reason: "not in the nginx -T output")
                }
                opened.names.insert(file)
                return bytes
            },
            identity: { $0 })
        return NginxConfigTree(mainPath: main, directives: try reader.directives(of: main, stack: []))
    }

    /// Every `log_format` by name (the first definition wins, as nginx refuses duplicates), with
    /// nginx's predefined `combined` unless the configuration defines it.
    package func logFormats() throws(FormatError) -> [(name: String, format: LogFormat?, problem: String?)] {
        var result: [(name: String, format: LogFormat?, problem: String?)] = []
        for directive in directives where directive.words.first == "log_format" && directive.words.count >= 3 {
            let name = directive.words[1]
            guard !result.contains(where: { $0.name == name }) else { continue }
            do {
                result.append(
                    (name, try NginxConfig.compile(directive.words, file: directive.file, line: directive.line), nil))
            } catch let error as FormatError {
                result.append((name, nil, error.description))
            } catch {
                result.append((name, nil, String(describing: error)))
            }
        }
        if !result.contains(where: { $0.name == "combined" }) {
            result.append(("combined", try? BuiltinFormats.named("combined"), nil))
        }
        return result
    }

    /// The `log_format` called `name` (or the predefined `combined`).
    func logFormat(named name: String) throws -> LogFormat {
        for directive in directives
        where directive.words.first == "log_format" && directive.words.count >= 3 && directive.words[1] == name {
            return try NginxConfig.compile(directive.words, file: directive.file, line: directive.line)
        }
        if name == "combined" { return try BuiltinFormats.named("combined") }
        let found = directives.filter { $0.words.first == "log_format" && $0.words.count >= 3 }.map { $0.words[1] }
        throw FormatError.notInConfig(name: name, path: mainPath, found: found, includes: [])
    }

    /// Every `access_log` directive, in the order nginx reads them.
    package var accessLogs: [AccessLog] {
        let logs = directives.filter { $0.words.first == "access_log" && $0.words.count >= 2 }
        // The blocks with an access_log of their own, and each http block's server blocks.
        let withOwn = Set(logs.compactMap(\.context.last))
        var servers: [String: [String]] = [:]
        for directive in directives where directive.words.first == "server" {
            guard let http = directive.context.last, http.hasPrefix("http@") else { continue }
            servers[http, default: []].append(directive.opens ?? "")
        }
        return logs.map { directive in
            let target = directive.words[1]
            if target == "off" { return AccessLog(path: nil, formatName: "", place: directive.place) }
            var format = "combined"
            if directive.words.count >= 3, !directive.words[2].contains("=") { format = directive.words[2] }
            var log = AccessLog(path: target, formatName: format, place: directive.place)
            if let block = directive.context.last, block.hasPrefix("http@"), let inside = servers[block] {
                log.replaced = inside.allSatisfy(withOwn.contains)
            }
            return log
        }
    }

    /// Follows includes with the file access it is given.
    struct Reader {
        var expand: (String) -> [String]
        var read: (String) throws(FormatError) -> [UInt8]
        var identity: (String) -> String

        /// The main file as given (nginx's `-c`): relative includes are read from its directory,
        /// not from the directory of the file a symbolic link points to.
        var mainPath: String? = nil

        func directives(of file: String, stack: [String]) throws(FormatError) -> [Located] {
            var reader = self
            if reader.mainPath == nil { reader.mainPath = file }
            return try reader.follow(file, stack: stack)
        }

        private func follow(_ file: String, stack: [String], context: [String] = []) throws(FormatError)
            -> [Located]
        {
            let id = identity(file)
            if stack.contains(id) {
                throw FormatError.configSyntax(
                    path: file, line: 0,
                    message: "include cycle: \((stack + [id]).joined(separator: " includes "))")
            }
            let parsed: [NginxConfig.Directive]
            do {
                parsed = try NginxConfig.parse(try read(file), path: file)
            } catch let error as FormatError {
                throw error
            } catch {
                throw FormatError.configSyntax(path: file, line: 0, message: String(describing: error))
            }
            var result: [Located] = []
            for directive in parsed {
                if directive.words.first == "include", directive.words.count == 2 {
                    var pattern = directive.words[1]
                    if !pattern.hasPrefix("/") { pattern = directory(of: mainPath ?? file) + pattern }
                    let matches = expand(pattern)
                    if matches.isEmpty, !pattern.contains(where: { "*?[".contains($0) }) {
                        throw FormatError.unreadableConfig(
                            path: pattern, reason: "included from \(file):\(directive.line) but not found")
                    }
                    for match in matches {
                        result += try follow(match, stack: stack + [id], context: context + directive.context)
                    }
                    continue
                }
                result.append(
                    Located(
                        words: directive.words, file: file, line: directive.line, context: context + directive.context,
                        opens: directive.opens))
            }
            return result
        }

        /// Relative includes are read from the main file's directory (nginx's conf prefix).
        private func directory(of main: String) -> String {
            guard let slash = main.lastIndex(of: "/") else { return "" }
            return String(main[...slash])
        }
    }
}
