import FoundationEssentials
import UAAuditRun

/// `doctor --json`: what doctor found, as one JSON object (keys sorted).
extension DoctorReport {
    struct JSONPlace: Encodable {
        var file: String
        var line: Int
        var text: String?
    }

    struct JSONFinding: Encodable {
        var action: String
        var status: Int
        var zone: String?
        var decidedBy: [JSONPlace]
        var condition: JSONPlace?
        var actedOnBy: JSONPlace
        var server: String
        var serverPlace: JSONPlace
        /// Empty: every location of the server.
        var locations: [String]
        var classes: [String]
        var appClass: Bool
        var uas: [JSONUA]
        /// Requests of each class that got `status` in the lines read (absent without them).
        var logged: [String: Int64]?

        enum CodingKeys: String, CodingKey {
            case action, status, zone, condition, server, locations, classes, uas, logged
            case decidedBy = "decided_by"
            case actedOnBy = "acted_on_by"
            case serverPlace = "server_place"
            case appClass = "app_class"
        }
    }

    struct JSONUA: Encodable {
        var ua: String
        var `class`: String
        var requests: Int64
    }

    struct JSONRules: Encodable {
        var rules: String?
        var tried: [JSONUA]
        var linesRead: Int
        var maps: Int
        var mapEntries: Int
        var conditions: Int
        var findings: [JSONFinding]
        var dependsOn: [JSONPlace]
        var notEvaluated: [String]

        enum CodingKeys: String, CodingKey {
            case rules, tried, maps, conditions, findings
            case linesRead = "lines_read"
            case mapEntries = "map_entries"
            case dependsOn = "depends_on"
            case notEvaluated = "not_evaluated"
        }
    }

    struct JSONLog: Encodable {
        var path: String?
        var format: String
        var place: String
        var checked: Int
        var parsed: Int
        var unreadable: String?
    }

    struct JSONDoctor: Encodable {
        var nginxConf: String
        var files: [String]
        var accessLogs: [JSONLog]
        var format: String?
        var logs: [String]
        var app: String?
        var status: Int
        var uaRules: JSONRules?

        enum CodingKeys: String, CodingKey {
            case files, format, logs, app, status
            case nginxConf = "nginx_conf"
            case accessLogs = "access_logs"
            case uaRules = "ua_rules"
        }
    }

    func json() -> String {
        var doc = JSONDoctor(
            nginxConf: tree.mainPath, files: tree.files,
            accessLogs: checks.map {
                JSONLog(
                    path: $0.log.path, format: $0.log.formatName, place: $0.log.place, checked: $0.checked,
                    parsed: $0.parsed, unreadable: $0.unreadable)
            }, format: chosen?.definition.name, logs: chosen?.logs ?? [], app: apps?.chosen?.name,
            status: Int(status.rawValue), uaRules: nil)
        let rules = nginxRules
        if rules.triedUAs {
            func place(_ line: NginxUAAudit.Line) -> JSONPlace {
                JSONPlace(file: line.place.file, line: line.place.line, text: line.text)
            }
            func ua(_ tested: NginxUAAudit.TestedUA) -> JSONUA {
                JSONUA(ua: tested.ua, class: tested.className, requests: tested.requests)
            }
            let findings = rules.ordered.map { finding -> JSONFinding in
                var zone: String?
                var action = "return"
                if case .rateLimited(let name, _) = finding.action {
                    zone = name
                    action = "rate_limit"
                }
                let logged = rules.logged(finding)
                return JSONFinding(
                    action: action, status: finding.status, zone: zone, decidedBy: finding.decidedBy.map(place),
                    condition: finding.condition.map(place), actedOnBy: place(finding.actedOnBy),
                    server: finding.server,
                    serverPlace: JSONPlace(file: finding.serverPlace.file, line: finding.serverPlace.line),
                    locations: finding.locations, classes: rules.classes(of: finding),
                    appClass: rules.hitsAppClass(finding), uas: finding.uas.map(ua),
                    logged: logged.isEmpty ? nil : Dictionary(logged, uniquingKeysWith: +))
            }
            doc.uaRules = JSONRules(
                rules: rules.rulesSource, tried: rules.tested.map(ua), linesRead: rules.linesRead,
                maps: rules.audit.uaMaps, mapEntries: rules.audit.uaMapEntries,
                conditions: rules.audit.uaConditions, findings: findings,
                dependsOn: rules.audit.dependsOn.map {
                    JSONPlace(file: $0.place.file, line: $0.place.line, text: $0.variables.joined(separator: " "))
                }, notEvaluated: rules.audit.problems)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(doc) else { return "{}\n" }
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
