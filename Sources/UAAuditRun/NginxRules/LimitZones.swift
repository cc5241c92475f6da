import UAAuditInput

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

    /// What one level says of a kind of limit: its directives, its status and dry-run settings.
    private struct Level {
        var limits: [NginxConfigTree.Located] = []
        var status: Int?
        var dryRun: Bool?
    }

    /// Each level's, by kind, read once: a server of 5,000 locations is not read 5,000 times.
    private final class Levels {
        var byBlock: [String: [String: Level]] = [:]
    }
    private let levels = Levels()

    private func level(_ directives: [NginxConfigTree.Located], id: String, kind: String) -> Level {
        if let known = levels.byBlock[id]?[kind] { return known }
        var level = Level()
        for directive in directives {
            switch directive.words.first {
            case kind where directive.words.count >= 2: level.limits.append(directive)
            case kind + "_status" where directive.words.count == 2: level.status = Int(directive.words[1])
            case kind + "_dry_run" where directive.words.count == 2: level.dryRun = directive.words[1] == "on"
            default: continue
            }
        }
        levels.byBlock[id, default: [:]][kind] = level
        return level
    }

    /// The limits that apply in the innermost of `levels` (a location, its parents, its server),
    /// then `http`.
    func limits(for blocksIn: [NginxConfigTree.Located]) -> [Limit] {
        let chain =
            blocksIn.map { (blocks.inside($0), NginxBlocks.id(of: $0)) } + [(http, "http")]
        var result: [Limit] = []
        for kind in ["limit_req", "limit_conn"] {
            let read = chain.map { level($0.0, id: $0.1, kind: kind) }
            guard let own = read.first(where: { !$0.limits.isEmpty }) else { continue }
            // `limit_req_dry_run on`: counted, never rejected.
            if read.lazy.compactMap(\.dryRun).first == true { continue }
            let status = read.lazy.compactMap(\.status).first ?? 503
            for directive in own.limits {
                let name =
                    kind == "limit_req"
                    ? directive.words.first(where: { $0.hasPrefix("zone=") }).map { String($0.dropFirst(5)) }
                    : directive.words[1]
                guard let name, let zone = keys[name], zone.kind == kind else { continue }
                result.append(
                    Limit(
                        zone: name, key: zone.key, place: NginxPlace(directive),
                        written: NginxUAAudit.text(of: directive.words), status: status))
            }
        }
        return result
    }
}
