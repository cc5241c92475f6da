@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

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
        findingTheEnd(bytes)
        bytes.withUnsafeBytes { line in
            for (tokenizer, reference) in zip(tokenizers, references) {
                let matched = tokenizer.match(line)
                FuzzTargets.check(matched == reference.match(line), "vectorised and scalar verdicts differ")
                guard matched else { continue }
                checkSameCut(tokenizer, reference, "vectorised")
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

    /// The input as a buffer read from a log: where the C sweep finds the first line's end itself
    /// (``LineTokenizer/matchLine(_:available:)``), it is the first `\n` and the line is matched
    /// as the scalar reference matches it. The buffer is exactly the input's size, so a sweep
    /// that read past `available` is an AddressSanitizer error.
    static func findingTheEnd(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: bytes.count, alignment: 1)
        defer { buffer.deallocate() }
        bytes.withUnsafeBytes { buffer.copyMemory(from: $0.baseAddress!, byteCount: bytes.count) }
        let end = bytes.firstIndex(of: 0x0A)
        for (tokenizer, reference) in zip(tokenizers, references) {
            guard let (length, matched) = tokenizer.matchLine(buffer, available: bytes.count) else { continue }
            FuzzTargets.check(length == end, "the sweep found a line end that is not the first newline")
            let line = Array(bytes[..<length])
            line.withUnsafeBytes { line in
                FuzzTargets.check(matched == reference.match(line), "line-end sweep and scalar verdicts differ")
                guard matched else { return }
                checkSameCut(tokenizer, reference, "line-end sweep")
            }
        }
    }

    /// The spans, hour and second `tokenizer` (`name`) left for its last line are the reference's.
    static func checkSameCut(_ tokenizer: LineTokenizer, _ reference: LineTokenizer, _ name: String) {
        for k in 0..<tokenizer.fieldCount {
            FuzzTargets.check(
                tokenizer.starts[k] == reference.starts[k] && tokenizer.ends[k] == reference.ends[k],
                "\(name) and scalar spans of field \(k) differ")
        }
        FuzzTargets.check(
            tokenizer.hour == reference.hour && tokenizer.secondOfHour == reference.secondOfHour,
            "\(name) and scalar times differ")
    }
}
