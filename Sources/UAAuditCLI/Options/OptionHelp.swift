/// The OPTIONS lines of a `--help`, made from the declarations.
enum OptionHelp {
    /// The column where the help text starts.
    static let column = 27

    /// Each option as `      --name VALUE        text` (`  -o, --out FILE` with a short form),
    /// the text's further lines under its first; a signature too long for the column puts the
    /// text on the next line.
    /// `margin` is where a long name starts, `shortMargin` where `-o, --out` starts.
    static func render(_ options: [OptionDef], margin: Int = 6, shortMargin: Int = 2, column: Int = column) -> String {
        options.map { render($0, margin: margin, shortMargin: shortMargin, column: column) }.joined(separator: "\n")
    }

    static func render(_ option: OptionDef, margin: Int = 6, shortMargin: Int = 2, column: Int = column) -> String {
        let head = String(repeating: " ", count: option.short == nil ? margin : shortMargin) + option.signature
        let indent = String(repeating: " ", count: column)
        var lines: [String]
        if head.count < column {
            lines = [head + String(repeating: " ", count: column - head.count) + option.help[0]]
        } else {
            lines = [head, indent + option.help[0]]
        }
        lines += option.help.dropFirst().map { indent + $0 }
        return lines.joined(separator: "\n")
    }
}
