/// Patterns that uaaudit shipped (the built-in rules, and so `rules/builtin.json`,
/// `rules/api-only.json` and every rules file copied from them) whose text backtracks
/// quadratically on a crafted UA, each with the form PCRE2 runs instead: one that matches the
/// same strings in linear time (issue 31).
///
/// The text stays what reports, `classify` and merges show and compare (a report written
/// before keeps merging with one written after); only the compiled code differs.
///
/// Why the forms match the same strings: the originals are `P.*A` and `P.*A.*B`, where `P`,
/// `A` and `B` each match at most once at a given start and no two matches of one overlap
/// (each begins with a literal word that cannot occur inside another's digits). So when any
/// `A` follows `P`, the first one does, and leaves the most room for `B`: an atomic lazy
/// `(?>.*?A)` gives up nothing. When that fails from a `P`, it fails from every later `P` of
/// the same line (`.` stops at a newline, as in the originals): `.*+(*SKIP)(*FAIL)` moves the
/// next try to the line's end instead of to each later `P`. Without that, 2,000 UAs of 7.5 KB
/// shaped `MyApp/1.1.1 (iPhone;N ` + `iOS 1_1)`×930 cost 137× an ordinary line per byte.
/// `LinearFormsTests` checks each pair on the sample logs' UAs and crafted ones.
enum LinearForms {
    static let app = #"MyApp/\d+\.\d+\.\d+ \(iPhone;"#
    static let os = #"iOS \d+_\d+\)"#

    /// Original text → the form that is compiled.
    static let known: [String: String] = [
        // webview
        app + ".*" + os + #".*Safari/\d+\.\d+"#:
            app + "(?:(?>.*?" + os + #").*?Safari/\d+\.\d+|.*+(*SKIP)(*FAIL))"#,
        // urlsession
        app + ".*" + os:
            app + "(?:.*?" + os + "|.*+(*SKIP)(*FAIL))",
    ]
}
