import Testing

@testable import UAAuditCLI

@Suite struct ZshCompletionTests {
    static let script = ZshCompletion.render()

    /// The `case` branch of one command.
    static func branch(_ command: String) -> String {
        let start = script.range(of: "\n    \(command))\n")!.upperBound
        let rest = script[start...]
        return String(rest[..<rest.range(of: "\n      ;;\n")!.lowerBound])
    }

    /// A declared option missing from its command's branch fails here.
    @Test(arguments: CommandSpec.all.map(\.name))
    func everyDeclaredOptionIsInItsCommandsBranch(command: String) {
        let branch = Self.branch(command)
        for option in CommandSpec.all.first(where: { $0.name == command })!.options {
            #expect(branch.contains("        " + ZshCompletion.argument(option) + " "), "\(command) \(option.flag)")
        }
    }

    static let arguments: [(OptionDef, String)] = [
        (PolicyOptions.out, #"'(-o --out)'{-o+,--out=}'[write the JSON report to FILE (atomically); '\''-'\'' is stdout. No output may be an input or another output]:FILE:_files'"#),
        (PolicyOptions.quiet, #"'(-q --quiet)'{-q,--quiet}'[print no summary and no progress line]'"#),
        (AuditOptions.escape, #"'--escape=[escaping of --log-format values: default, json, none]:MODE:(default json none)'"#),
        (AlertOptions.webhook, #"'*--webhook=[a channel for alerts; repeat for more channels (the URL shows in ps: prefer --webhook-url-env or --webhook-url-file)]:URL: '"#),
        (AlertOptions.webhookURLFile, #"'*--webhook-url-file=[a channel whose URL is in the file PATH]:PATH:_files'"#),
        (DoctorCommand.stateDir, #"'--state-dir=[state, report and lock in DIR (default /var/lib/uaaudit)]:DIR:_files -/'"#),
    ]

    @Test(arguments: arguments)
    func anOptionIsOneArgumentsSpec(option: OptionDef, spec: String) {
        #expect(ZshCompletion.argument(option) == spec)
    }

    @Test func startsWithCompdefAndEndsByCallingTheFunction() {
        #expect(Self.script.hasPrefix("#compdef uaaudit\n"))
        #expect(Self.script.hasSuffix("\n_uaaudit \"$@\"\n"))
        #expect(Self.branch("state").contains("'1:action:(show)'"))
        #expect(Self.branch("scan").contains("'*:operand:_files'"))
    }
}
