import Foundation
import Testing

/// Messages quote rules files and UAs written by others: an ESC or BEL in them is shown
/// escaped on stderr and stdout, never sent raw to the operator's terminal.
@Suite struct ControlBytesInMessagesTests {
    @Test func aRulesFileWithControlBytesIsQuotedEscaped() throws {
        let dir = try Scratch()
        let broken = try dir.write(
            "broken.json",
            #"{"version":1,"alert_class":"inconsistent","rules":[{"class":"inconsistent","patterns":["Moz\u001b[2J\u0007"]}]}"#)
        let refused = try Tool.run(["classify", "--rules", broken, "x"])
        #expect(refused.status == 2)
        #expect(!refused.stderr.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 })
        #expect(refused.stderr.contains(#"pattern Moz\x1B[2J\x07 does not compile"#), "\(refused.stderr)")

        let rules = try dir.write(
            "rules.json",
            #"{"version":1,"alert_class":"inconsistent","rules":[{"class":"inconsistent","patterns":["Moz\u001b\\[2J\u0007"]}]}"#)
        let shown = try Tool.run(["classify", "--rules", rules, "Moz\u{1B}[2J\u{07}"])
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(!shown.stdout.contains(0x1B) && !shown.stdout.contains(0x07))
        #expect(shown.out == "inconsistent  Moz\\x1B[2J\\x07\n              rule inconsistent, pattern Moz\\x1B\\[2J\\x07\n")
    }
}
