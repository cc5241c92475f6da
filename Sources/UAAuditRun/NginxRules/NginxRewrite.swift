import UAAuditInput

/// Runs a level's rewrite-module directives (`set`, `if`, `return`, `break`) in order for one
/// request, as nginx's server-rewrite and rewrite phases do.
///
/// An `if` whose condition holds runs its block; what the block sets carries the condition's
/// reasons (a `set $block 1` inside `if ($http_user_agent ~* darwin)` is decided by that `if`).
/// A condition that cannot be told from the UA alone is taken as false and, when the UA takes
/// part in it, noted. `rewrite` depends on the URI and is passed over.
struct NginxRewrite {
    /// How a level's directives ended.
    enum Stop {
        /// `return CODE`, with the reasons of the conditions around it and the `if` it is in.
        case returned(code: Int, at: NginxUAAudit.Line, because: NginxValue, inIf: NginxUAAudit.Line?)
        /// `break`: the level's remaining rewrite directives do not run.
        case broke
        /// A `rewrite` with a flag: what follows depends on the URI, which uaaudit does not know.
        case rewritten
    }

    /// An `if` that reads a UA-derived value but also something uaaudit cannot know.
    struct Undecided: Equatable {
        var place: NginxPlace
        var dependsOn: [String]
    }

    let blocks: NginxBlocks
    var undecided: [Undecided] = []
    /// Each `if`'s condition, compiled once (its regex is PCRE2-compiled and JIT-compiled).
    private var conditions: [ConditionKey: NginxCondition] = [:]

    private struct ConditionKey: Hashable {
        var place: NginxPlace
        var words: [String]
    }

    init(blocks: NginxBlocks) { self.blocks = blocks }

    mutating func run(
        _ directives: [NginxConfigTree.Located], request: inout NginxRequest, around: NginxValue = .known(""),
        inIf: NginxUAAudit.Line? = nil
    ) -> Stop? {
        for (index, directive) in directives.enumerated() {
            let words = directive.words
            switch words.first {
            case "set" where words.count == 3 && words[1].hasPrefix("$"):
                var value = request.evaluate(words[2])
                value.absorb(around)
                request.assigned[NginxMap.lowered(String(words[1].dropFirst()))] = value
            case "if":
                let place = NginxPlace(directive)
                let key = ConditionKey(place: place, words: words)
                let condition = conditions[key] ?? NginxCondition(words: words)
                conditions[key] = condition
                let (holds, value, failed) = request.holds(condition)
                if failed, value.fromUA {
                    // nginx answers 500 when an `if`'s regex fails (PCRE2's match limit).
                    var reasons = around
                    reasons.absorb(value)
                    let line = NginxUAAudit.Line(place: place, text: NginxUAAudit.text(of: words))
                    reasons.because.append(line)
                    let at = NginxUAAudit.Line(place: place, text: "(the regex does not finish: nginx answers 500)")
                    return .returned(code: 500, at: at, because: reasons, inIf: nil)
                }
                guard let holds else {
                    if value.fromUA, !value.dependsOn.isEmpty {
                        let note = Undecided(place: place, dependsOn: value.dependsOn)
                        if !undecided.contains(note) { undecided.append(note) }
                    }
                    continue
                }
                guard holds else { continue }
                var reasons = around
                reasons.absorb(value)
                // A test of the UA itself is decided by the `if`'s own line.
                let line = NginxUAAudit.Line(place: place, text: NginxUAAudit.text(of: words))
                if condition.variable == "http_user_agent" { reasons.because.append(line) }
                if let stop = run(blocks.inside(directive), request: &request, around: reasons, inIf: line) {
                    return stop
                }
            case "return" where words.count >= 2:
                let at = NginxUAAudit.Line(place: NginxPlace(directive), text: NginxUAAudit.text(of: words))
                return .returned(code: Self.code(words), at: at, because: around, inIf: inIf)
            case "break":
                return .broke
            case "rewrite" where words.count >= 3:
                // Without a flag nginx goes on with the next directive, matched or not. With
                // `last`, `break`, `redirect` or `permanent` it stops when the URI matches, which
                // uaaudit cannot tell: nothing after it is claimed, and an `if` there is noted.
                guard let flag = words.last, ["last", "break", "redirect", "permanent"].contains(flag), words.count == 4
                else { continue }
                if around.fromUA || directives[(index + 1)...].contains(where: { $0.words.first == "if" }) {
                    let note = Undecided(place: NginxPlace(directive), dependsOn: ["the URI (rewrite)"])
                    if !undecided.contains(note) { undecided.append(note) }
                }
                return .rewritten
            default:
                continue
            }
        }
        return nil
    }

    /// `return CODE [TEXT]`, or `return URL` (302).
    static func code(_ words: [String]) -> Int {
        if let code = Int(words[1]), (0...999).contains(code) { return code }
        return 302
    }
}
