import UAAuditAudit
import UAAuditInput

/// A `map SOURCE $VARIABLE { … }` block, matched the way nginx's map module matches it.
///
/// nginx looks the source value up among the exact keys first (case-insensitively: both the
/// keys and the value are lowercased), then, with `hostnames`, among the `*.`/`.`-prefixed and
/// `.*`-suffixed masks (longest first), then tries the regular expressions in the order they
/// were written (`~` case-sensitive, `~*` not; an empty value matches none), and falls back to
/// `default` (the empty string when there is none).
struct NginxMap: Sendable {
    struct Entry: Sendable {
        enum Kind: Sendable, Equatable {
            case exact
            case regex(caseless: Bool)
            /// `*.example.com` (`bare` false) or `.example.com` (`bare`: example.com too).
            case prefixMask(bare: Bool)
            case suffixMask
        }
        var kind: Kind
        /// The key as written after `~`/`~*`/`\` (lowercased for exact keys and masks).
        var key: String
        var value: String
        var place: NginxPlace
        /// The entry as it could be written (`"~*\bWord\b" 3`).
        var written: String
        var pattern: Pattern?
        /// Why the regex does not compile, if so (nginx refuses such a configuration).
        var problem: String?
    }

    var source: String
    /// The variable it sets, without `$`, lowercased.
    var variable: String
    var place: NginxPlace
    var hostnames = false
    var entries: [Entry] = []
    /// The exact keys (lowercased) and their entry's index, the first of equal ones.
    private var exact: [String: Int] = [:]
    /// The regex entries' indexes, in the order written; the masks' (with `hostnames`).
    private var regexes: [Int] = []
    private var masks: [Int] = []
    var defaultValue = ""
    var defaultPlace: NginxPlace?
    var defaultWritten = ""
    /// The `map SOURCE $VARIABLE` line as written.
    var written: String

    /// Every `map` of the `http` blocks.
    static func all(in blocks: NginxBlocks) -> [NginxMap] {
        blocks.httpLevel.compactMap { directive in
            guard directive.words.first == "map", directive.words.count == 3, directive.words[2].hasPrefix("$")
            else { return nil }
            return NginxMap(directive, inside: blocks.inside(directive))
        }
    }

    init(_ directive: NginxConfigTree.Located, inside: [NginxConfigTree.Located]) {
        source = directive.words[1]
        variable = String(directive.words[2].dropFirst()).lowercased()
        place = NginxPlace(directive)
        written = NginxUAAudit.text(of: directive.words)
        hostnames = inside.contains { $0.words == ["hostnames"] }
        for line in inside where line.words.count == 2 {
            var key = line.words[0]
            let value = line.words[1]
            let at = NginxPlace(line)
            let text = NginxUAAudit.text(of: line.words)
            if key == "default" {
                defaultValue = value
                defaultPlace = at
                defaultWritten = text
                continue
            }
            if key.count > 1, key.hasPrefix("~") {
                key.removeFirst()
                var caseless = false
                if key.hasPrefix("*") {
                    key.removeFirst()
                    caseless = true
                }
                var entry = Entry(kind: .regex(caseless: caseless), key: key, value: value, place: at, written: text)
                do {
                    entry.pattern = try Pattern(key, linear: false, caseless: caseless)
                } catch {
                    entry.problem = "\(error.message) at offset \(error.offset)"
                }
                regexes.append(entries.count)
                entries.append(entry)
                continue
            }
            if key.hasPrefix("\\") { key.removeFirst() }
            var kind = Entry.Kind.exact
            if hostnames {
                if key.hasPrefix("*.") {
                    key.removeFirst()
                    kind = .prefixMask(bare: false)
                } else if key.hasPrefix(".") {
                    kind = .prefixMask(bare: true)
                } else if key.hasSuffix(".*") {
                    key.removeLast()
                    kind = .suffixMask
                }
            }
            // A second equal key is a configuration nginx refuses ("conflicting parameter").
            let lowered = NginxMap.lowered(key)
            if kind == .exact {
                guard exact[lowered] == nil else { continue }
                exact[lowered] = entries.count
            } else {
                masks.append(entries.count)
            }
            entries.append(Entry(kind: kind, key: lowered, value: value, place: at, written: text))
        }
    }

    /// The limits nginx's regexes run under: PCRE2's defaults, which nginx does not change. A
    /// regex of a `map` that hits them gives the map's default; one of an `if`, a 500.
    static let nginxLimits = MatchLimits(matchLimit: 10_000_000, heapLimitKiB: 20_000)

    /// ASCII letters lowercased, as nginx's `ngx_hash_strlow` does (other bytes kept).
    static func lowered(_ text: String) -> String {
        String(decoding: text.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self)
    }

    /// The entry that `subject` selects (nil: the default), or why it cannot be told.
    func lookup(_ subject: String, matcher: PatternMatcher) -> Result<Entry?, NginxRulesError> {
        var lowered = NginxMap.lowered(subject)
        if hostnames, lowered.hasSuffix(".") { lowered.removeLast() }
        if let index = exact[lowered] { return .success(entries[index]) }
        if hostnames {
            // nginx's wildcard hashes: the longest mask that fits wins.
            let masks = masks.map { entries[$0] }.filter { entry in
                switch entry.kind {
                case .prefixMask(let bare):
                    return lowered.hasSuffix(entry.key) || (bare && "." + lowered == entry.key)
                case .suffixMask: return lowered.hasPrefix(entry.key)
                default: return false
                }
            }
            if let best = masks.max(by: { $0.key.utf8.count < $1.key.utf8.count }) { return .success(best) }
        }
        guard !subject.isEmpty else { return .success(nil) }
        let bytes = Array(subject.utf8)
        for index in regexes {
            let entry = entries[index]
            guard let pattern = entry.pattern else {
                return .failure(.badRegex(place: entry.place, message: entry.problem ?? ""))
            }
            let outcome = bytes.withUnsafeBytes { matcher.search(pattern, in: $0) }
            switch outcome {
            case .match: return .success(entry)
            case .noMatch: continue
            case .failed(let why):
                // ngx_http_map_find gives up on an error, and the map's default is used.
                return .failure(.matchFailed(place: entry.place, message: why))
            }
        }
        return .success(nil)
    }
}

/// Why a rule of nginx's configuration could not be evaluated for a UA.
enum NginxRulesError: Error, Equatable, Sendable, CustomStringConvertible {
    case badRegex(place: NginxPlace, message: String)
    case matchFailed(place: NginxPlace, message: String)

    var description: String {
        switch self {
        case .badRegex(let place, let message): "\(place): the regular expression does not compile: \(message)"
        case .matchFailed(let place, let message): "\(place): matching stopped: \(message)"
        }
    }
}
