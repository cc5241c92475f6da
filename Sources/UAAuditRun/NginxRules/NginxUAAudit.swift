import UAAuditAudit
import UAAuditInput

/// Which of nginx's own UA rules refuse which of the app's UAs: `map`s on the UA, `if`s on it
/// or on variables derived from it, and `limit_req`/`limit_conn` zones keyed on such a variable,
/// evaluated for each UA the way nginx evaluates them for a request (``NginxMap``,
/// ``NginxRewrite``), in every `server` and `location`.
package struct NginxUAAudit: Sendable {
    /// A UA to try, and the class the audit's rules give it.
    package struct TestedUA: Equatable, Sendable {
        package var ua: String
        package var className: String
        /// Requests with this UA in the lines read (0 for a rules file's example).
        package var requests: Int64
        /// True for a rules file's example (false: taken from the log).
        package var example: Bool

        package init(ua: String, className: String, requests: Int64 = 0, example: Bool = true) {
            self.ua = ua
            self.className = className
            self.requests = requests
            self.example = example
        }
    }

    /// A configuration line and what it says.
    package struct Line: Hashable, Sendable, Comparable {
        package var place: NginxPlace
        package var text: String

        package static func < (a: Line, b: Line) -> Bool { a.place < b.place }
    }

    /// A rule of nginx's configuration that refuses (or rate-limits) some of the UAs tried.
    package struct Finding: Equatable, Sendable {
        package enum Action: Hashable, Sendable {
            /// `return CODE`.
            case returns(Int)
            /// A `limit_req`/`limit_conn` zone whose key the UA makes non-empty: the status
            /// nginx answers with over the limit.
            case rateLimited(zone: String, status: Int)
        }
        package var action: Action
        /// The map entries or conditions that decide it, in configuration order.
        package var decidedBy: [Line]
        /// The `if` that acts on it, if any, and the `return` or `limit_req` line.
        package var condition: Line?
        package var actedOnBy: Line
        /// `server_name`s of the server it applies in, and that server's line.
        package var server: String
        package var serverPlace: NginxPlace
        /// The locations it applies in; empty: every location (a server-level rule).
        package var locations: [String]
        /// The UAs it hits, in the order tried.
        package var uas: [TestedUA]

        package var status: Int {
            switch action {
            case .returns(let code): code
            case .rateLimited(_, let status): status
            }
        }
    }

    package var findings: [Finding] = []
    /// Conditions that read the UA together with something uaaudit cannot know.
    package var dependsOn: [(place: NginxPlace, variables: [String])] = []
    /// Rules that could not be evaluated (a regex nginx would refuse, a match limit).
    package var problems: [String] = []
    /// How many UA rules the configuration has: maps whose source is derived from the UA (and
    /// their entries), and `if`s that read a UA-derived variable.
    package var uaMaps = 0
    package var uaMapEntries = 0
    package var uaConditions = 0

    /// Evaluates `tree`'s UA rules for each of `uas`.
    package static func evaluate(_ tree: NginxConfigTree, uas: [TestedUA]) -> NginxUAAudit {
        let blocks = NginxBlocks(tree)
        let maps = NginxMap.all(in: blocks)
        var byVariable: [String: NginxMap] = [:]
        // A second map of one variable replaces the first's handler: nginx uses the last.
        for map in maps { byVariable[map.variable] = map }

        var audit = NginxUAAudit()
        let derived = uaDerived(maps: maps, directives: tree.directives)
        for map in maps where derived.contains(map.variable) {
            audit.uaMaps += 1
            audit.uaMapEntries += map.entries.count + (map.defaultPlace == nil ? 0 : 1)
            for entry in map.entries where entry.problem != nil {
                audit.problems.append(
                    NginxRulesError.badRegex(place: entry.place, message: entry.problem ?? "").description)
            }
        }
        audit.uaConditions =
            tree.directives.filter {
                $0.words.first == "if" && NginxCondition(words: $0.words).variable.map(derived.contains) == true
            }.count
        let settable = Set(
            tree.directives.compactMap { directive -> String? in
                guard directive.words.first == "set", directive.words.count == 3, directive.words[1].hasPrefix("$")
                else { return nil }
                return NginxMap.lowered(String(directive.words[1].dropFirst()))
            })
        let pure = pureMaps(maps, settable: settable)
        // Per UA, the values of the maps that no `set` reaches: computed once, not per server.
        var shared: [String: [String: NginxValue]] = [:]
        let zones = LimitZones(blocks: blocks)
        let matcher = PatternMatcher(limits: NginxMap.nginxLimits)
        var rewrite = NginxRewrite(blocks: blocks)
        var found: [Finding] = []
        for server in blocks.servers {
            let inside = blocks.inside(server)
            let names = inside.filter { $0.words.first == "server_name" }.flatMap { $0.words.dropFirst() }
            let serverName = names.joined(separator: " ")
            // Each location with the limits that apply in it: the same for every UA.
            let locations = blocks.locations(in: server).map { location, parents in
                (
                    location, inside: blocks.inside(location),
                    limits: zones.limits(for: [location] + parents.reversed() + [server])
                )
            }
            for tested in uas {
                var request = NginxRequest(ua: tested.ua, maps: byVariable, settable: settable, matcher: matcher)
                request.cache = shared[tested.ua] ?? [:]
                defer { shared[tested.ua] = request.cache.filter { pure.contains($0.key) } }
                let atServer = rewrite.run(inside, request: &request)
                audit.note(request.problems)
                let base = Finding(
                    action: .returns(0), decidedBy: [], condition: nil,
                    actedOnBy: Line(place: NginxPlace(server), text: "server"),
                    server: serverName, serverPlace: NginxPlace(server), locations: [], uas: [tested])
                if case .returned = atServer {
                    if let finding = base.returning(atServer) { found.append(finding) }
                    continue
                }
                // After a `rewrite` the location depends on the URI: nothing more is claimed.
                if case .rewritten = atServer { continue }
                for (location, locationDirectives, limits) in locations {
                    var here = request
                    var finding = base
                    finding.locations = [location.words.dropFirst().joined(separator: " ")]
                    let stop = rewrite.run(locationDirectives, request: &here)
                    defer {
                        audit.note(here.problems)
                        // What a location looked up of the maps no `set` reaches, the next need not.
                        for (name, value) in here.cache where pure.contains(name) && request.cache[name] == nil {
                            request.cache[name] = value
                        }
                    }
                    if case .returned = stop {
                        if let returned = finding.returning(stop) { found.append(returned) }
                        continue
                    }
                    if case .rewritten = stop { continue }
                    for limit in limits {
                        var key = here.evaluate(limit.key)
                        guard key.fromUA, key.text?.isEmpty != true else { continue }
                        key.because.sort()
                        finding.action = .rateLimited(zone: limit.zone, status: limit.status)
                        finding.decidedBy = key.because
                        finding.condition = nil
                        finding.actedOnBy = Line(place: limit.place, text: limit.written)
                        found.append(finding)
                    }
                }
            }
        }
        audit.findings = group(found)
        audit.dependsOn = rewrite.undecided.map { ($0.place, $0.dependsOn) }
        return audit
    }

    /// A directive as it could be written: words quoted where nginx needs them quoted, an `if`'s
    /// condition in its parentheses.
    static func text(of words: [String]) -> String {
        func quoted(_ word: String) -> String {
            let special = word.isEmpty || word.contains { " \t\n;{}\"'".contains($0) }
            guard special else { return word }
            // Other backslashes stay as written: nginx keeps `\b` in a quoted word as `\b`.
            return "\"" + word.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\\\"") + "\""
        }
        guard words.first == "if" else { return words.map(quoted).joined(separator: " ") }
        let inner = NginxCondition.inside(words)
        return "if (" + inner.map(quoted).joined(separator: " ") + ")"
    }

    private mutating func note(_ errors: [NginxRulesError]) {
        for error in errors where !problems.contains(error.description) { problems.append(error.description) }
    }

    /// One finding per rule, server and action, with every location and UA it hits.
    static func group(_ found: [Finding]) -> [Finding] {
        struct Key: Hashable {
            var action: Finding.Action
            var decidedBy: [Line]
            var condition: Line?
            var actedOnBy: Line
            var server: NginxPlace
        }
        var result: [Finding] = []
        var index: [Key: Int] = [:]
        var locations: [Set<String>] = []
        var uas: [Set<String>] = []
        for finding in found {
            let key = Key(
                action: finding.action, decidedBy: finding.decidedBy, condition: finding.condition,
                actedOnBy: finding.actedOnBy, server: finding.serverPlace)
            guard let i = index[key] else {
                index[key] = result.count
                result.append(finding)
                locations.append(Set(finding.locations))
                uas.append(Set(finding.uas.map(\.ua)))
                continue
            }
            for location in finding.locations where locations[i].insert(location).inserted {
                result[i].locations.append(location)
            }
            for ua in finding.uas where uas[i].insert(ua.ua).inserted { result[i].uas.append(ua) }
        }
        return result
    }

    /// The maps whose value depends on no `set` variable, through their sources, values and the
    /// maps they read: the same for a UA wherever it is looked up.
    static func pureMaps(_ maps: [NginxMap], settable: Set<String>) -> Set<String> {
        func variables(_ map: NginxMap) -> [String] {
            ([map.source, map.defaultValue] + map.entries.map(\.value)).flatMap { text in
                NginxTemplate.pieces(text).compactMap { piece -> String? in
                    if case .variable(let name) = piece { return name }
                    return nil
                }
            }
        }
        var impure = settable
        var grew = true
        while grew {
            grew = false
            for map in maps where !impure.contains(map.variable) && variables(map).contains(where: impure.contains) {
                impure.insert(map.variable)
                grew = true
            }
        }
        return Set(maps.map(\.variable)).subtracting(impure)
    }

    /// The variables the UA decides: maps whose source reads `$http_user_agent` or another such
    /// variable, and variables `set` from one or inside an `if` on one.
    static func uaDerived(maps: [NginxMap], directives: [NginxConfigTree.Located]) -> Set<String> {
        var derived: Set<String> = ["http_user_agent"]
        func reads(_ source: String) -> Bool {
            NginxTemplate.pieces(source).contains {
                if case .variable(let name) = $0 { return derived.contains(name) }
                return false
            }
        }
        var grew = true
        while grew {
            grew = false
            for map in maps where !derived.contains(map.variable) && reads(map.source) {
                derived.insert(map.variable)
                grew = true
            }
            for directive in directives where directive.words.first == "set" && directive.words.count == 3 {
                let name = NginxMap.lowered(String(directive.words[1].dropFirst()))
                guard !derived.contains(name) else { continue }
                let inUAIf =
                    directive.context.last.map { block in
                        directives.contains {
                            $0.opens == block && $0.words.first == "if"
                                && NginxCondition(words: $0.words).variable.map(derived.contains) == true
                        }
                    } ?? false
                if reads(directive.words[2]) || inUAIf {
                    derived.insert(name)
                    grew = true
                }
            }
        }
        return derived
    }
}

extension NginxUAAudit {
    /// The value `$variable` takes in the `http` context for a request with `ua` (its maps
    /// followed), nil when it depends on more than the UA: what `return 200 $variable` in a
    /// location without rewrite directives answers.
    static func value(of variable: String, ua: String, in tree: NginxConfigTree) -> NginxValue {
        let maps = NginxMap.all(in: NginxBlocks(tree))
        var byVariable: [String: NginxMap] = [:]
        for map in maps { byVariable[map.variable] = map }
        var request = NginxRequest(
            ua: ua, maps: byVariable, settable: [], matcher: PatternMatcher(limits: NginxMap.nginxLimits))
        return request.variable(NginxMap.lowered(variable))
    }
}

extension NginxUAAudit.Finding {
    /// This finding with the `return` a level stopped at, when the UA decided it.
    func returning(_ stop: NginxRewrite.Stop?) -> Self? {
        guard case .returned(let code, let at, let because, let inIf) = stop, because.fromUA else { return nil }
        var finding = self
        finding.action = .returns(code)
        finding.decidedBy = because.because
        finding.condition = inIf
        finding.actedOnBy = at
        return finding
    }
}
