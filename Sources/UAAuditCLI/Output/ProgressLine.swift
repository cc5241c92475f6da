import Dispatch
import Glibc
import UAAuditAudit

/// The progress line of a scan on a terminal: bytes done of the total, lines per second and the
/// time left, on stderr, redrawn four times a second and erased when the scan ends.
///
/// Nothing is drawn for the first half second, so a short scan shows nothing at all. It is
/// only started when stderr is a terminal and `--quiet` is not given; it writes to stderr
/// alone, so it never mixes into stdout's JSON or summary.
final class ProgressLine: @unchecked Sendable {
    static let interval = 0.25
    static let delay = 0.5

    private let counter: ProgressCounter
    private let started: UInt64
    private let queue = DispatchQueue(label: "uaaudit.progress")
    // `timer`, `drawn` and `stopped` are only touched on `queue`.
    private var timer: (any DispatchSourceTimer)?
    private var drawn = false
    private var stopped = false

    private init(counter: ProgressCounter) {
        self.counter = counter
        self.started = DispatchTime.now().uptimeNanoseconds
    }

    /// A running progress line, or nil when it must not show (stderr is not a terminal, `--quiet`).
    static func start(counter: ProgressCounter, stderrIsTerminal: Bool, quiet: Bool) -> ProgressLine? {
        guard stderrIsTerminal, !quiet else { return nil }
        let line = ProgressLine(counter: counter)
        let timer = DispatchSource.makeTimerSource(queue: line.queue)
        timer.schedule(deadline: .now() + firstDrawDelay(), repeating: interval)
        timer.setEventHandler { [line] in line.draw() }
        line.queue.sync { line.timer = timer }
        timer.resume()
        return line
    }

    /// `delay`; in debug builds `UAAUDIT_TEST_PROGRESS_DELAY` (seconds) replaces it, so that the
    /// end-to-end test sees the line on a scan of a few megabytes.
    private static func firstDrawDelay() -> Double {
        #if DEBUG
            if let value = getenv("UAAUDIT_TEST_PROGRESS_DELAY"), let seconds = Double(String(cString: value)) {
                return seconds
            }
        #endif
        return delay
    }

    /// Stops redrawing and erases the line; after it returns nothing more is written.
    func stop() {
        queue.sync {
            timer?.cancel()
            timer = nil
            stopped = true
            if drawn { Console.writeStandardError(Array("\r\u{1B}[K".utf8)) }
            drawn = false
        }
    }

    private func draw() {
        guard !stopped else { return }
        let (bytes, lines, total) = counter.snapshot
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        let text = ProgressLine.render(
            bytes: bytes, lines: lines, total: total, elapsed: elapsed, width: ProgressLine.terminalWidth())
        Console.writeStandardError(Array("\r\(text)\u{1B}[K".utf8))
        drawn = true
    }

    /// The line, cut to `width - 1` columns so that it never wraps (a wrapped line cannot be
    /// redrawn with `\r`). The total is shown when known and not passed (stdin has none).
    static func render(bytes: Int, lines: Int, total: Int, elapsed: Double, width: Int) -> String {
        var text = "scanning " + size(bytes)
        let rate = elapsed > 0 ? Double(lines) / elapsed : 0
        if total > 0, bytes <= total {
            text += " of \(size(total)) (\(bytes * 100 / total)%), \(lineRate(rate))"
            let byteRate = elapsed > 0 ? Double(bytes) / elapsed : 0
            text += ", ETA " + (byteRate > 0 ? duration(Double(total - bytes) / byteRate) : "--")
        } else {
            text += ", \(lineRate(rate))"
        }
        let limit = max(width - 1, 10)
        return text.count <= limit ? text : String(text.prefix(limit))
    }

    /// `812 B`, `3.4 KiB`, `1.2 GiB`.
    static func size(_ bytes: Int) -> String {
        let units = ["KiB", "MiB", "GiB", "TiB"]
        if bytes < 1024 { return "\(bytes) B" }
        var value = Double(bytes) / 1024
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return "\(oneDecimal(value)) \(units[unit])"
    }

    /// `850 lines/s`, `85.3 k lines/s`, `4.5 M lines/s`.
    static func lineRate(_ rate: Double) -> String {
        if rate < 1000 { return "\(Int(rate.rounded())) lines/s" }
        if rate < 1_000_000 { return "\(oneDecimal(rate / 1000)) k lines/s" }
        return "\(oneDecimal(rate / 1_000_000)) M lines/s"
    }

    /// `42s`, `3m05s`, `1h02m`.
    static func duration(_ seconds: Double) -> String {
        let s = Int(seconds.rounded(.up))
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        if s < 60 { return "\(s)s" }
        if s < 3600 { return "\(s / 60)m\(two(s % 60))s" }
        return "\(s / 3600)h\(two(s % 3600 / 60))m"
    }

    static func oneDecimal(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }

    /// Columns of the terminal on stderr; 80 when it does not say.
    static func terminalWidth() -> Int {
        var size = winsize()
        guard ioctl(2, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 80 }
        return Int(size.ws_col)
    }
}
