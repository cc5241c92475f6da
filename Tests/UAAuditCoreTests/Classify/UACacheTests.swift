import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

@Suite struct UACacheTests {
    @Test func cachedClassesEqualDirectClassificationEvenWhenTheCacheOverflows() {
        let classifier = Classifier(rules: RuleSet.builtin())
        // A tiny cache: four entries, so it is emptied again and again.
        let cache = UACache(classifier: classifier, escape: .default, entries: 4, arenaBytes: 256, maxLineBytes: 4096)
        let uas = [LogLines.webview, LogLines.urlsession, LogLines.cfnetwork, LogLines.curl, LogLines.safari]
        var expected: [UInt8] = []
        var got: [UInt8] = []
        for round in 0..<50 {
            for (i, ua) in uas.enumerated() {
                let raw = Array("\(ua) #\(round % 7)-\(i)".utf8)
                got.append(raw.withUnsafeBytes { cache.classOf(raw: $0) })
                expected.append(raw.withUnsafeBytes { classifier.classify($0) })
            }
        }
        #expect(got == expected)
        #expect(Set(got) == [0, 1, 2, 3])
    }

    @Test func cacheKeysOnTheRawFieldAndClassifiesTheDecodedOne() {
        let classifier = Classifier(rules: RuleSet.builtin())
        let cache = UACache(classifier: classifier, escape: .default, maxLineBytes: 4096)
        // 'com\x2Eapple...' decodes to com.apple.CFNetwork: inconsistent only after decoding.
        let raw = Array(#"SDK com\x2Eapple\x2ECFNetwork"#.utf8)
        #expect(raw.withUnsafeBytes { cache.classOf(raw: $0) } == 2)
        #expect(raw.withUnsafeBytes { cache.classOf(raw: $0) } == 2)
        #expect(cache.misses == 1)
    }

    @Test func missingIsDecidedOnTheRawField() {
        for (text, missing) in [("", true), ("-", true), ("--", false), (" ", false), (#"\x2D"#, false)] {
            #expect(Array(text.utf8).withUnsafeBytes { Classifier.isMissing(raw: $0) } == missing)
        }
    }
}
