import UAAuditAudit

/// The app's UAs to try against nginx's rules: every example of the rules' classes, then the
/// most frequent UAs of each class in the lines read.
enum AppUAs {
    /// UAs of each class taken from the lines read, most frequent first.
    static let perClass = 5

    /// `rules`' examples of its own classes (not `other`/`missing`), then the `perClass` most
    /// frequent UAs of each class in `seen` (UA → requests), each UA once.
    static func select(rules: RuleSet, seen: [String: Int64]) -> [NginxUAAudit.TestedUA] {
        let classes = Set(rules.rules.map(\.name))
        var result: [NginxUAAudit.TestedUA] = []
        var taken: Set<String> = []
        for example in rules.examples where classes.contains(example.className) {
            let ua = String(decoding: example.ua, as: UTF8.self)
            guard taken.insert(ua).inserted else { continue }
            result.append(.init(ua: ua, className: example.className, requests: seen[ua] ?? 0))
        }
        let classifier = Classifier(rules: rules)
        var byClass: [String: [(ua: String, requests: Int64)]] = [:]
        for (ua, requests) in seen {
            let name = classifier.explain(Array(ua.utf8)).className
            guard classes.contains(name) else { continue }
            byClass[name, default: []].append((ua, requests))
        }
        for rule in rules.rules {
            let top = (byClass[rule.name] ?? []).sorted { ($0.requests, $1.ua) > ($1.requests, $0.ua) }
            for entry in top.prefix(perClass) where taken.insert(entry.ua).inserted {
                result.append(.init(ua: entry.ua, className: rule.name, requests: entry.requests, example: false))
            }
        }
        return result
    }

    /// Requests of each class in `seen` that got `status` (`statuses`: UA → status → requests).
    static func requests(
        rules: RuleSet, statuses: [String: [Int: Int64]], status: Int
    ) -> [String: Int64] {
        let classifier = Classifier(rules: rules)
        var result: [String: Int64] = [:]
        for (ua, counts) in statuses {
            guard let n = counts[status], n > 0 else { continue }
            result[classifier.explain(Array(ua.utf8)).className, default: 0] += n
        }
        return result
    }
}
