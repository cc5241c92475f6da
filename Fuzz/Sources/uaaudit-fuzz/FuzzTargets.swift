@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

/// The fuzz targets: the parts of uaaudit that read outside input.
enum FuzzTargets {
    static let names = ["tokenizer", "unescape", "format", "time", "rules", "nginx-conf", "config", "state", "gzip"]

    static func run(_ name: String, _ bytes: [UInt8]) {
        switch name {
        case "tokenizer": Tokenizing.run(bytes)
        case "unescape": unescape(bytes)
        case "format": format(bytes)
        case "time": time(bytes)
        case "rules": _ = try? RulesFile.parse(bytes, path: "fuzz")
        case "nginx-conf": nginxConf(bytes)
        case "config": _ = try? RunConfig.decode(bytes, path: "fuzz")
        case "state": state(bytes)
        case "gzip": Gunzipping.run(bytes)
        default: break
        }
    }

    /// Decoding what nginx's escaping wrote gives back the bytes, in both modes; decoding never
    /// makes a field longer.
    static func unescape(_ bytes: [UInt8]) {
        for mode in [EscapeMode.default, .json] {
            let escaped = Escape.nginx(bytes, mode: mode)
            check(Unescape.decode(escaped, mode: mode) == bytes, "decode(escape(x)) != x (\(mode))")
            check(Unescape.decode(bytes, mode: mode).count <= bytes.count, "decoding grew the input (\(mode))")
        }
    }

    /// A format that compiles compiles again, to the same segments, from its own rendering.
    static func format(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let format = try? LogFormat(text) else { return }
        var rendered = ""
        for segment in format.segments {
            switch segment {
            case .literal(let literal): rendered += String(decoding: literal, as: UTF8.self)
            case .variable(let name, _): rendered += "${\(name)}"
            }
        }
        let again = try? LogFormat(rendered)
        check(again?.segments == format.segments, "a compiled format does not round-trip")
    }

    /// A parsed time gives an hour whose ISO-8601 form parses back to the same hour.
    static func time(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return }
            var parser = TimeParser()
            let keys = [
                parser.parseLocal(base, count: raw.count), TimeParser.parseISO8601(base, count: raw.count),
                TimeParser.parseMsec(base, count: raw.count),
            ]
            for case let key? in keys {
                check(HourKey(iso8601: key.iso8601) == key, "hour \(key.iso8601) does not round-trip")
            }
        }
    }

    static func nginxConf(_ bytes: [UInt8]) {
        if let format = try? NginxConfig.logFormat(named: "f", config: bytes, path: "fuzz") {
            check(format.name == "f", "a config format lost its name")
        }
    }

    /// A state that loads encodes and loads again to the same value.
    static func state(_ bytes: [UInt8]) {
        guard let state = try? RunState.decode(bytes, path: "fuzz"), let encoded = try? state.encoded() else { return }
        check((try? RunState.decode(encoded, path: "fuzz")) == state, "a loaded state does not round-trip")
    }

    static func check(_ condition: Bool, _ message: @autoclosure () -> String) {
        if !condition { fatalError("property broken: \(message())") }
    }
}
