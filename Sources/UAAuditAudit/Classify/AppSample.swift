import UAAuditInput

/// The last lines of some logs, read for the apps their traffic holds (`doctor`).
package struct AppSample: Sendable {
    package struct Read: Equatable, Sendable {
        package var path: String
        /// Lines read, and those that parsed in the format.
        package var lines: Int
        package var parsed: Int
        /// Why the log could not be read, if so.
        package var error: String?
    }

    package var reads: [Read]
    package var detection: AppDetection
    /// Requests per UA in the lines read (missing UAs left out).
    package var requests: [String: Int64] = [:]
    /// Requests per UA and status, when the format logs `$status`.
    package var statuses: [String: [Int: Int64]] = [:]

    /// Bytes read from the end of each log at most, whatever the line count asked for.
    static let maxWindow = 8 << 20

    /// Reads the last `lines` lines of each of `paths` (a window of about 1 KiB per line, at
    /// most ``maxWindow`` bytes) and detects the apps of their UAs.
    package static func read(paths: [String], format: LogFormat, lines: Int) -> AppSample {
        let tokenizer = LineTokenizer(format: format)
        let clientField = FormatNeeds(formatString: format.string).clientKey.flatMap {
            format.variableNames.firstIndex(of: $0)
        }
        var clients: [String: Set<UInt64>] = [:]
        var counts: [String: Int64] = [:]
        var statuses: [String: [Int: Int64]] = [:]
        let statusField = format.variableNames.firstIndex(of: "status")
        var requests: Int64 = 0
        var reads: [Read] = []
        let window = min(max(lines, 256) << 10, maxWindow)
        for path in paths {
            do throws(InputError) {
                let tail = try LogTail.lastLines(path: path, count: lines, window: window)
                var parsed = 0
                for line in tail {
                    let read = line.withUnsafeBytes { bytes -> (ua: String?, client: UInt64?, status: Int?)? in
                        guard tokenizer.match(bytes) else { return nil }
                        let client = clientField.map { ByteHash.hash(tokenizer.field($0)) }
                        let status = statusField.flatMap { Int(String(decoding: tokenizer.field($0), as: UTF8.self)) }
                        let raw = tokenizer.field(tokenizer.userAgentField)
                        if Classifier.isMissing(raw: raw) { return (nil, client, status) }
                        let ua = String(decoding: Unescape.decode(Array(raw), mode: format.escape), as: UTF8.self)
                        return (ua, client, status)
                    }
                    guard let read else { continue }
                    parsed += 1
                    requests += 1
                    if let ua = read.ua {
                        counts[ua, default: 0] += 1
                        if let status = read.status { statuses[ua, default: [:]][status, default: 0] += 1 }
                        if let client = read.client { clients[ua, default: []].insert(client) }
                    }
                }
                reads.append(Read(path: path, lines: tail.count, parsed: parsed))
            } catch {
                reads.append(Read(path: path, lines: 0, parsed: 0, error: error.reason))
            }
        }
        let detection = AppDetection.detect(
            counts.map { (ua: $0.key, count: $0.value) }, requests: requests,
            clients: clientField == nil ? nil : clients)
        return AppSample(reads: reads, detection: detection, requests: counts, statuses: statuses)
    }
}
