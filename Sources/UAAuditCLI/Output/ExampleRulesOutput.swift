import UAAuditReport

/// How the example-rules notice is printed: its sentence wrapped to 80 columns, then its
/// command on a line of its own, whole, to paste.
enum ExampleRulesOutput {
    static func text(_ notice: ExampleRulesNotice.Notice) -> String {
        let sentence = TerminalText.wrapped("uaaudit: " + notice.message, indent: "", width: 80)
        return sentence.joined(separator: "\n") + "\n    " + TerminalText.escape(notice.command) + "\n"
    }
}
