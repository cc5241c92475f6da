/// Reads `log_format` directives out of an nginx configuration file.
///
/// The config is split into directives the way nginx's own reader does (quotes, `\` escapes,
/// `#` comments, blocks). Reading a file follows its `include`s (``NginxConfigTree``); config
/// text alone cannot, so its errors name the includes.
package enum NginxConfig {

    /// Reads the config at `path`, its includes followed, and compiles its `log_format` called
    /// `name` (nginx's predefined `combined` unless the config redefines it).
    package static func logFormat(named name: String, path: String) throws -> LogFormat {
        try NginxConfigTree.load(path: path).logFormat(named: name)
    }

    /// Compiles the `log_format` called `name` from config text, without following includes
    /// (`path` is only used in messages).
    static func logFormat(named name: String, config: [UInt8], path: String) throws -> LogFormat {
        let directives = try parse(config, path: path)
        var includes: [String] = []
        var found: [String] = []
        var result: LogFormat?
        for directive in directives {
            if directive.words.first == "include", directive.words.count > 1 {
                includes.append(directive.words[1])
            }
            guard directive.words.first == "log_format", directive.words.count >= 3 else { continue }
            let formatName = directive.words[1]
            found.append(formatName)
            guard formatName == name, result == nil else { continue }
            result = try compile(directive.words, file: path, line: directive.line)
        }
        if result == nil, name == "combined" { result = try BuiltinFormats.named(name) }
        guard let result else {
            throw FormatError.notInConfig(name: name, path: path, found: found, includes: includes)
        }
        return result
    }

    /// Compiles the words of a `log_format NAME [escape=…] STRING…` directive.
    static func compile(_ words: [String], file: String, line: Int) throws -> LogFormat {
        let name = words[1]
        var pieces = Array(words.dropFirst(2))
        var escape = EscapeMode.default
        if let first = pieces.first, first.hasPrefix("escape="), pieces.count > 1 {
            let value = String(first.dropFirst("escape=".count))
            guard let mode = EscapeMode(rawValue: value) else {
                throw FormatError.badEscapeParameter(value: value, path: file, line: line)
            }
            escape = mode
            pieces.removeFirst()
        }
        return try LogFormat(pieces.joined(), escape: escape, name: name)
    }

    struct Directive {
        var words: [String]
        var line: Int
        /// The blocks it is in, outermost first, each as `NAME@FILE:LINE#N` of the directive that
        /// opens it (`http@nginx.conf:12#0`; N counts the blocks of the file, so that two blocks
        /// opened on one line are two): within this file.
        var context: [String] = []
        /// The id of the block this directive opens, if it opens one.
        var opens: String? = nil
    }

    /// Splits config text into directives (blocks are flattened: `http {` is a directive too).
    /// The byte after a backslash, as nginx copies a word: `\"`, `\'` and `\\` are the byte,
    /// `\t`, `\r` and `\n` a tab, CR and newline; anything else keeps its backslash.
    private static func unescape(_ n: UInt8, into word: inout [UInt8]) {
        switch n {
        case UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "\\"): word.append(n)
        case UInt8(ascii: "t"): word.append(0x09)
        case UInt8(ascii: "r"): word.append(0x0D)
        case UInt8(ascii: "n"): word.append(0x0A)
        default:
            word.append(UInt8(ascii: "\\"))
            word.append(n)
        }
    }

    /// Blocks must balance within each file, as nginx requires (`nginx -t`: unexpected "}",
    /// unexpected end of file): a config nginx refuses is not one to give advice from.
    static func parse(_ text: [UInt8], path: String) throws -> [Directive] {
        var directives: [Directive] = []
        var words: [String] = []
        var startLine = 1
        var line = 1
        var i = 0
        var blocks: [String] = []
        var opened = 0
        func flush(opening: String? = nil) {
            if !words.isEmpty {
                directives.append(Directive(words: words, line: startLine, context: blocks, opens: opening))
            }
            words = []
        }
        while i < text.count {
            let b = text[i]
            switch b {
            case 0x0A:
                line += 1
                i += 1
            case 0x20, 0x09, 0x0D:
                i += 1
            case UInt8(ascii: "#"):
                while i < text.count, text[i] != 0x0A { i += 1 }
            case UInt8(ascii: ";"), UInt8(ascii: "{"), UInt8(ascii: "}"):
                // Outside a word these end a directive or open/close a block; with no
                // directive before them, a ';' or '{' is one nginx refuses.
                if b != UInt8(ascii: "}"), words.isEmpty {
                    throw FormatError.configSyntax(
                        path: path, line: line, message: "unexpected \"\(b == UInt8(ascii: ";") ? ";" : "{")\"")
                }
                if b == UInt8(ascii: "}") {
                    if !words.isEmpty {
                        throw FormatError.configSyntax(
                            path: path, line: line, message: "unexpected \"}\" (a \";\" missing?)")
                    }
                    guard blocks.popLast() != nil else {
                        throw FormatError.configSyntax(path: path, line: line, message: "unexpected \"}\"")
                    }
                }
                var opening: String?
                if b == UInt8(ascii: "{") {
                    opening = "\(words[0])@\(path):\(startLine)#\(opened)"
                    opened += 1
                }
                flush(opening: opening)
                if let opening { blocks.append(opening) }
                i += 1
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                if words.isEmpty { startLine = line }
                let quote = b
                let openLine = line
                var word: [UInt8] = []
                i += 1
                var closed = false
                while i < text.count {
                    let c = text[i]
                    if c == quote {
                        closed = true
                        i += 1
                        break
                    }
                    if c == 0x0A { line += 1 }
                    if c == UInt8(ascii: "\\"), i + 1 < text.count {
                        if text[i + 1] == 0x0A { line += 1 }
                        unescape(text[i + 1], into: &word)
                        i += 2
                        continue
                    }
                    word.append(c)
                    i += 1
                }
                guard closed else {
                    throw FormatError.configSyntax(path: path, line: openLine, message: "unterminated quoted string")
                }
                words.append(String(decoding: word, as: UTF8.self))
            default:
                if words.isEmpty { startLine = line }
                // As nginx reads a word: space, tab, newline, ';' and '{' end it, except that
                // '{' right after '$' belongs to a '${name}' variable; '}' never ends a word.
                // A backslash escapes the next byte there too (`\t` is a tab, `\ ` a space).
                let start = i
                var word: [UInt8] = []
                while i < text.count {
                    let c = text[i]
                    if c == UInt8(ascii: "\\"), i + 1 < text.count {
                        if text[i + 1] == 0x0A { line += 1 }
                        unescape(text[i + 1], into: &word)
                        i += 2
                        continue
                    }
                    if c == UInt8(ascii: "{"), i > start, text[i - 1] == UInt8(ascii: "$") {
                        word.append(c)
                        i += 1
                        continue
                    }
                    if c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D || c == UInt8(ascii: ";")
                        || c == UInt8(ascii: "{")
                    {
                        break
                    }
                    word.append(c)
                    i += 1
                }
                words.append(String(decoding: word, as: UTF8.self))
            }
        }
        if !words.isEmpty {
            throw FormatError.configSyntax(
                path: path, line: line, message: "unexpected end of file, expecting \";\" or \"}\"")
        }
        if !blocks.isEmpty {
            throw FormatError.configSyntax(path: path, line: line, message: "unexpected end of file, expecting \"}\"")
        }
        flush()
        return directives
    }
}
