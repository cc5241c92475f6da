import Testing

@testable import UAAuditCLI

@Suite struct ArgumentsTests {
    static let specs: [Arguments.Spec] = [
        .init(name: "out", short: "o", takesValue: true),
        .init(name: "json", short: nil, takesValue: false),
        .init(name: "threads", short: "j", takesValue: true),
    ]

    @Test func parsesValuesFlagsShortAliasesAndPositionals() throws {
        let args = try Arguments(
            ["--json", "a.log", "-o", "r.json", "--threads=3", "-", "--", "--json"], specs: Self.specs)
        #expect(args.flag("json"))
        #expect(args.value("out") == "r.json")
        #expect(args.value("threads") == "3")
        #expect(args.positional == ["a.log", "-", "--json"])
        #expect(try args.integer("threads", range: 1...8) == 3)
    }

    /// The last value used to win in silence; only the channel options repeat.
    /// (The refusal is in `errors`.)
    @Test func theChannelOptionsRepeat() throws {
        let specs = Self.specs + [.init(name: "webhook", short: nil, takesValue: true)]
        let args = try Arguments(["--webhook", "a", "--webhook=b"], specs: specs)
        #expect(args.ordered.map(\.value) == ["a", "b"])
    }

    static let errors: [([String], String)] = [
        (["--nope"], "unknown option --nope; see --help"),
        (["--jsn"], "unknown option --jsn; did you mean --json? see --help"),
        (["--thread=2"], "unknown option --thread; did you mean --threads? see --help"),
        (["-x"], "unknown option -x; see --help"),
        (["--out"], "--out needs a value; see --help"),
        (["--json=yes"], "--json takes no value"),
        (["-j", "1", "--threads", "2"], "--threads is given twice ('1' and '2'); give it once (see --help)"),
    ]

    @Test(arguments: errors)
    func errorsSayWhatIsWrong(words: [String], message: String) {
        #expect(throws: CLIError.self) { _ = try Arguments(words, specs: Self.specs) }
        do {
            _ = try Arguments(words, specs: Self.specs)
        } catch {
            #expect(error.message == message)
        }
    }

    @Test func integersAreRangeChecked() throws {
        let args = try Arguments(["--threads", "0"], specs: Self.specs)
        do {
            _ = try args.integer("threads", range: 1...256)
            Issue.record("expected an error")
        } catch {
            #expect(error.message == "--threads takes a whole number from 1 to 256, not '0'")
        }
    }
}
