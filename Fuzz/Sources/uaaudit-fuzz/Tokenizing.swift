@testable import UAAuditCore

/// Tokenizer target: every field of a matched line lies inside the line, in order; with
/// `escape=default` or `json`, the UA field holds no unescaped quote; the vectorised cut (C,
/// SSE2) and the scalar reference agree on the verdict, every span, the hour and the second.
enum Tokenizing {
    nonisolated(unsafe) static let references: [LineTokenizer] = tokenizers.map {
        LineTokenizer(format: $0.format, vectorised: false)
    }

    nonisolated(unsafe) static let tokenizers: [LineTokenizer] = {
        let formats = [
            try? LogFormat(BuiltinFormats.uaLog), try? LogFormat(BuiltinFormats.uaLog, escape: .json),
            try? LogFormat(BuiltinFormats.combined), try? LogFormat(BuiltinFormats.uaLog, escape: .none),
            try? LogFormat("$msec|$status|$http_user_agent"),
        ]
        return formats.compactMap { $0.map { LineTokenizer(format: $0) } }
    }()

    static func run(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { line in
            for (tokenizer, reference) in zip(tokenizers, references) {
                let matched = tokenizer.match(line)
                FuzzTargets.check(matched == reference.match(line), "vectorised and scalar verdicts differ")
                guard matched else { continue }
                for k in 0..<tokenizer.fieldCount {
                    FuzzTargets.check(
                        tokenizer.starts[k] == reference.starts[k] && tokenizer.ends[k] == reference.ends[k],
                        "vectorised and scalar spans of field \(k) differ")
                }
                FuzzTargets.check(
                    tokenizer.hour == reference.hour && tokenizer.secondOfHour == reference.secondOfHour,
                    "vectorised and scalar times differ")
                var previousEnd = 0
                for k in 0..<tokenizer.fieldCount {
                    let start = tokenizer.starts[k]
                    let end = tokenizer.ends[k]
                    FuzzTargets.check(
                        start >= previousEnd && start <= end && end <= line.count, "field \(k) outside the line")
                    previousEnd = end
                }
                let ua = Array(tokenizer.field(tokenizer.userAgentField))
                if tokenizer.format.escape == .default {
                    FuzzTargets.check(!ua.contains(0x22), "a default-escaped UA holds a quote")
                }
                _ = Unescape.decode(ua, mode: tokenizer.format.escape)
            }
        }
    }
}
