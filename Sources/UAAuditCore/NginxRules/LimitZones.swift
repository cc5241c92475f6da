/// `limit_req_zone`/`limit_conn_zone` keys and the `limit_req`/`limit_conn` directives that use
/// them, level by level.
///
/// nginx counts a request in a zone only when the zone's key is not empty; a level's
/// `limit_req` directives replace the ones it would inherit (and so do `limit_conn`'s), and an
/// over-limit request gets `limit_req_status`/`limit_conn_status` (503 by default).
struct LimitZones {
    struct Limit: Equatable {
        var zone: String
        var key: String
        var place: NginxPlace
        var written: String
        var status: Int
        /// `limit_req` or `limit_conn`.
        var directive: String
    }

    private var keys: [String: (key: String, kind: String)] = [:]
    private let blocks: NginxBlocks
    private let http: [NginxConfigTree.Located]

    init(blocks: NginxBlocks) {
        self.blocks = blocks
        http = blocks.httpLevel
        for directive in http where directive.words.count >= 3 {
            guard let kind = ["limit_req_zone": "limit_req", "limit_conn_zone": "limit_conn"][directive.words[0]]
            else { continue }
            let rest = directive.words.dropFirst()
            guard let key = rest.first(where: { !$0.hasPrefix("zone=") && !$0.hasPrefix("rate=") && $0 != "sync" }),
                let zone = rest.first(where: { $0.hasPrefix("zone=") })
            else { continue }
            let name = String(zone.dropFirst("zone=".count).prefix { $0 != ":" })
            keys[name] = (key, kind)
        }
    }

    /// The limits that apply in the innermost of `levels` (a location, its parents, its server),
    /// then `http`.
    func limits(for levels: [NginxConfigTree.Located]) -> [Limit] {
        let contents = levels.map { blocks.inside($0) } + [http]
        var result: [Limit] = []
        for kind in ["limit_req", "limit_conn"] {
            guard let level = contents.first(where: { $0.contains { $0.words.first == kind } }) else { continue }
            // `limit_req_dry_run on`: counted, never rejected.
            let dryRun = contents.lazy.compactMap { $0.last(where: { $0.words.first == kind + "_dry_run" }) }.first
            if dryRun?.words.dropFirst().first == "on" { continue }
            let status =
                contents.lazy.compactMap { $0.last(where: { $0.words.first == kind + "_status" }) }
                .first.flatMap { $0.words.count == 2 ? Int($0.words[1]) : nil } ?? 503
            for directive in level where directive.words.first == kind && directive.words.count >= 2 {
                let name =
                    kind == "limit_req"
                    ? directive.words.first(where: { $0.hasPrefix("zone=") }).map { String($0.dropFirst(5)) }
                    : directive.words[1]
                guard let name, let zone = keys[name], zone.kind == kind else { continue }
                result.append(
                    Limit(
                        zone: name, key: zone.key, place: NginxPlace(directive),
                        written: NginxUAAudit.text(of: directive.words), status: status, directive: kind))
            }
        }
        return result
    }
}
