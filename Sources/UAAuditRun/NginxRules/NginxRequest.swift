import UAAuditAudit

/// One request's variables while nginx's rewrite directives run, with only the UA known.
///
/// `$http_user_agent` is the UA; a `map` variable is looked up from its source (and cached for
/// the request, as nginx caches it); a variable that `set` gave a value has it (an unset one
/// is empty, as nginx warns and uses); any other variable is unknown.
struct NginxRequest {
    let ua: String
    let maps: [String: NginxMap]
    /// Variables some `set` directive assigns: empty until a `set` runs.
    let settable: Set<String>
    let matcher: PatternMatcher
    var assigned: [String: NginxValue] = [:]
    /// Map values of this request; those of maps no `set` variable reaches are the same in
    /// every server and location, and are handed from one request for this UA to the next.
    var cache: [String: NginxValue] = [:]
    /// What could not be evaluated (a regex nginx would refuse, a match limit).
    var problems: [NginxRulesError] = []

    /// `ua` is taken as nginx stores the header: without the spaces and tabs around it.
    init(ua: String, maps: [String: NginxMap], settable: Set<String>, matcher: PatternMatcher) {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        self.ua = String(ua.drop(while: blank).reversed().drop(while: blank).reversed())
        self.maps = maps
        self.settable = settable
        self.matcher = matcher
    }

    mutating func variable(_ name: String, depth: Int = 0) -> NginxValue {
        if name == "http_user_agent" { return NginxValue(text: ua, fromUA: true) }
        if let value = assigned[name] { return value }
        if let map = maps[name], depth < 32 {
            if let cached = cache[name] { return cached }
            let value = lookup(map, depth: depth)
            cache[name] = value
            return value
        }
        if settable.contains(name) { return .known("") }
        return NginxValue(text: nil, dependsOn: ["$" + name])
    }

    /// A complex value (`"$a-${b}"`) with what decided each of its variables.
    mutating func evaluate(_ source: String, depth: Int = 0) -> NginxValue {
        var result = NginxValue.known("")
        var text: String? = ""
        for piece in NginxTemplate.pieces(source) {
            switch piece {
            case .text(let literal):
                text? += literal
            case .variable(let name):
                let value = variable(name, depth: depth + 1)
                result.absorb(value)
                if let known = value.text { text? += known } else { text = nil }
            }
        }
        result.text = text
        return result
    }

    private mutating func lookup(_ map: NginxMap, depth: Int) -> NginxValue {
        let source = evaluate(map.source, depth: depth)
        guard let subject = source.text else { return source }
        switch map.lookup(subject, matcher: matcher) {
        case .failure(let problem):
            problems.append(problem)
            guard case .matchFailed = problem else {
                var unknown = source
                unknown.text = nil
                unknown.dependsOn.append("\(problem.place)")
                return unknown
            }
            // A regex that fails to finish: nginx stops looking and takes the default.
            var value = evaluate(map.defaultValue, depth: depth)
            var decided = source
            decided.because.append(
                NginxUAAudit.Line(
                    place: problem.place, text: "(matching stopped: the map's default, as nginx takes it)"))
            value.absorb(decided)
            return value
        case .success(let entry):
            var value = evaluate(entry?.value ?? map.defaultValue, depth: depth)
            var decided = source
            if let entry {
                decided.because.append(NginxUAAudit.Line(place: entry.place, text: entry.written))
            } else if let place = map.defaultPlace {
                decided.because.append(NginxUAAudit.Line(place: place, text: map.defaultWritten))
            } else {
                decided.because.append(NginxUAAudit.Line(place: map.place, text: map.written + " (no default: \"\")"))
            }
            value.absorb(decided)
            return value
        }
    }

    /// Whether `condition` holds: nil when it cannot be told from the UA alone, or when its regex
    /// does not finish (`failed`: nginx then answers 500).
    mutating func holds(_ condition: NginxCondition) -> (holds: Bool?, value: NginxValue, failed: Bool) {
        if case .regex(let name, let pattern, _, let negated, _) = condition {
            let value = variable(name)
            guard let text = value.text, let pattern else { return (nil, value, false) }
            switch Array(text.utf8).withUnsafeBytes({ matcher.search(pattern, in: $0) }) {
            case .match: return (!negated, value, false)
            case .noMatch: return (negated, value, false)
            case .failed: return (nil, value, true)
            }
        }
        let (holds, value) = test(condition)
        return (holds, value, false)
    }

    private mutating func test(_ condition: NginxCondition) -> (holds: Bool?, value: NginxValue) {
        switch condition {
        case .truthy(let name):
            let value = variable(name)
            guard let text = value.text else { return (nil, value) }
            return (!(text.isEmpty || text == "0"), value)
        case .equals(let name, let right, let negated):
            var value = variable(name)
            let other = evaluate(right)
            value.absorb(other)
            guard let text = value.text, let expected = other.text else { return (nil, value) }
            return ((text == expected) != negated, value)
        case .regex:
            return (nil, NginxValue(text: nil))
        case .other:
            return (nil, NginxValue(text: nil))
        }
    }
}

extension NginxRulesError {
    var place: NginxPlace {
        switch self {
        case .badRegex(let place, _), .matchFailed(let place, _): place
        }
    }
}
