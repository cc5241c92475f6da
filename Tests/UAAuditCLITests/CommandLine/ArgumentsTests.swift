import Testing

@testable import UAAuditCLI

@Suite struct ArgumentsTests {
    static let out = OptionDef("out", short: "o", value: "FILE", help: ["write it"], completion: .file)
    static let json = OptionDef("json", help: ["print it"])
    static let quiet = OptionDef("quiet", short: "q", help: ["say nothing"])
    static let threads = OptionDef("threads", short: "j", value: "N", help: ["threads"])
    static let webhook = OptionDef("webhook", value: "URL", help: ["a channel"], repeatable: true)
    static let options = [out, json, quiet, threads, webhook]

    @Test func parsesValuesFlagsShortAliasesAndPositionals() throws {
        let args = try Arguments(
            ["--json", "a.log", "-o", "r.json", "--threads=3", "-", "--", "--json"], options: Self.options)
        #expect(args.flag(Self.json))
        #expect(!args.flag(Self.quiet))
        #expect(args.value(Self.out) == "r.json")
        #expect(args.value(Self.threads) == "3")
        #expect(args.positional == ["a.log", "-", "--json"])
        #expect(try args.integer(Self.threads, range: 1...8) == 3)
    }

    /// `-qj2` is `-q -j 2`: flags, then a valued short option that takes the rest of the word,
    /// or the next word when the word ends with it.
    static let combined: [([String], quiet: Bool, threads: String?, out: String?, positional: [String])] = [
        (["-qj2"], true, "2", nil, []),
        (["-qj", "2", "a.log"], true, "2", nil, ["a.log"]),
        (["-j2"], false, "2", nil, []),
        (["-qo-"], true, nil, "-", []),
        (["-oq"], false, nil, "q", []),
        (["-qq", "-o", "r.json"], true, nil, "r.json", []),
        (["-j", "-2"], false, "-2", nil, []),
    ]

    @Test(arguments: combined)
    func shortOptionsCombine(
        words: [String], quiet: Bool, threads: String?, out: String?, positional: [String]
    ) throws {
        let args = try Arguments(words, options: Self.options)
        #expect(args.flag(Self.quiet) == quiet)
        #expect(args.value(Self.threads) == threads)
        #expect(args.value(Self.out) == out)
        #expect(args.positional == positional)
    }

    @Test func aRepeatableOptionKeepsEveryValueInOrder() throws {
        let args = try Arguments(["--webhook", "a", "-q", "--webhook=b"], options: Self.options)
        #expect(args.all(Self.webhook) == ["a", "b"])
        #expect(args.ordered.map(\.option.name) == ["webhook", "webhook"])
        #expect(args.ordered.map(\.value) == ["a", "b"])
    }

    static let errors: [([String], String)] = [
        (["--nope"], "unknown option --nope; see --help"),
        (["--jsn"], "unknown option --jsn; did you mean --json? see --help"),
        (["--thread=2"], "unknown option --thread; did you mean --threads? see --help"),
        (["-x"], "unknown option -x; see --help"),
        (["-qx"], "unknown option -x (in -qx); see --help"),
        (["--out"], "--out needs a value; see --help"),
        (["-qo"], "-o needs a value; see --help"),
        (["--json=yes"], "--json takes no value"),
        // A single-value option given twice: which one was meant is not guessed.
        (["-j", "1", "--threads", "2"], "--threads is given twice ('1' and '2'); give it once (see --help)"),
        (["-qj1", "-j1"], "--threads is given twice ('1' and '1'); give it once (see --help)"),
        (["--out=a", "-ob"], "--out is given twice ('a' and 'b'); give it once (see --help)"),
        // `-o=FILE` would write a file named `=FILE`.
        (["-o=rep.json"], "-o=VALUE is not understood; write -o VALUE or --out=VALUE (see --help)"),
        (["-qj=2"], "-j=VALUE is not understood; write -j VALUE or --threads=VALUE (see --help)"),
        // A word's value is never echoed (it may hold a secret), and a long name after one
        // dash is pointed at its two-dash form.
        (
            ["-webhook=https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=SECRETKEY"],
            "unknown option -webhook=…; did you mean --webhook? see --help"
        ),
        (["-xy=SECRET"], "unknown option -x (in -x…); see --help"),
        (["-x" + String(repeating: "y", count: 100) + "=SECRET"], "unknown option -x (in -x…); see --help"),
        (["-x\u{1B}[2J"], "unknown option -x (in -x…); see --help"),
        // What follows the unknown letter may be a value (`-w` and a URL): never shown.
        (["-whttps://h/SECRET16"], "unknown option -w (in -w…); see --help"),
        (["-qSECRET11"], "unknown option -S (in -qS…); see --help"),
        // A short option of another command says whose it is, as a long one does.
        (["-c", "c.json"], "unknown option -c; -c is an option of run, state and alert (--config), not of this command; see --help"),
        // A path option needs a path: an empty one would be a confusing write error.
        (["--out="], "--out needs a file name, not an empty value; see --help"),
        (["-o", ""], "--out needs a file name, not an empty value; see --help"),
    ]

    @Test(arguments: errors)
    func errorsSayWhatIsWrong(words: [String], message: String) {
        #expect(throws: CLIError.self) { _ = try Arguments(words, options: Self.options) }
        do {
            _ = try Arguments(words, options: Self.options)
        } catch {
            #expect(error.message == message)
        }
    }

    @Test func integersAreRangeChecked() throws {
        let args = try Arguments(["--threads", "0"], options: Self.options)
        do {
            _ = try args.integer(Self.threads, range: 1...256)
            Issue.record("expected an error")
        } catch {
            #expect(error.message == "--threads takes a whole number from 1 to 256, not '0'")
        }
    }
}
