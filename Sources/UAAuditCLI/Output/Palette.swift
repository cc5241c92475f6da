/// ANSI colour for the human summary. On only when stdout is a terminal; off when `NO_COLOR`
/// is set to anything but the empty string (no-color.org) and when `TERM` is `dumb`.
struct Palette: Equatable {
    let enabled: Bool

    static let plain = Palette(enabled: false)
    static let ansi = Palette(enabled: true)

    static func forStandardOutput(isTerminal: Bool, environment: [String: String]) -> Palette {
        if !isTerminal { return .plain }
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return .plain }
        if environment["TERM"] == "dumb" { return .plain }
        return .ansi
    }

    /// Over the threshold: bold red.
    func alert(_ text: String) -> String { wrap(text, "1;31") }
    /// Headings and totals: bold.
    func strong(_ text: String) -> String { wrap(text, "1") }
    /// Secondary text: dim.
    func faint(_ text: String) -> String { wrap(text, "2") }

    private func wrap(_ text: String, _ code: String) -> String {
        enabled && !text.isEmpty ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}
