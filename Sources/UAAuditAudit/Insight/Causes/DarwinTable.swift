/// The iOS version a `Darwin/x.y.z` token stands for, iOS 12 to iOS 26.
///
/// A URLSession's default User-Agent (`MyShop/1234 CFNetwork/1494.0.7 Darwin/23.4.0`) names no
/// iOS version, only the kernel's; this table turns the kernel's into the release an engineer
/// knows ("17.4"), so that a report can say which releases still send the bad UA.
///
/// Source: every entry comes from the iOS rule of Matomo Device Detector's OS regexes,
/// `regexes/upstream/oss.yml`, as shipped in PyPI's `device_detector` 6.5.1 (the package and
/// version `scripts/real-ua-corpus.py` pins by SHA-256): its `Darwin/18\.0\.0` … `Darwin/25\.([0-6])\.0`
/// versions, ranges expanded one minor at a time. That rule already reaches Darwin 25 (iOS 26,
/// where Apple jumped from iOS 18 = Darwin 24 to name releases after the year), so no entry had to
/// come from elsewhere; Apple's own numbers agree where they are published (iOS 26.0 sends
/// `Darwin/25.0.0`). Kept to major.minor: the source's `13.3.1` for Darwin 19.3 is "13.3" here.
/// `scripts/real-ua-corpus.py` writes the source's pairs to `.build/corpus/darwin-ios.tsv`, and
/// `DarwinTableTests` checks every entry against them.
///
/// Each iOS version is the first release that sends that Darwin version: later point releases
/// may send the same one (iOS 13.1 and 13.2 still send `Darwin/19.0.0`, iOS 16.7 sends
/// `Darwin/22.6.0`), so read "17.4" as "17.4 or a later 17.x before the next Darwin minor".
/// Darwin minors the source does not list (18.1, 19.1) have no entry.
enum DarwinTable {
    /// Darwin major.minor and the iOS major.minor it maps to, in Darwin order.
    static let entries: [(darwin: String, ios: String)] = [
        ("18.0", "12.0"), ("18.2", "12.1"), ("18.5", "12.2"), ("18.6", "12.3"), ("18.7", "12.4"),
        ("19.0", "13.0"), ("19.2", "13.3"), ("19.3", "13.3"), ("19.4", "13.4"), ("19.5", "13.5"), ("19.6", "13.6"),
        ("20.0", "14.0"), ("20.1", "14.2"), ("20.2", "14.3"), ("20.3", "14.4"), ("20.4", "14.5"), ("20.5", "14.6"),
        ("20.6", "14.7"),
        ("21.0", "15.0"), ("21.1", "15.1"), ("21.2", "15.2"), ("21.3", "15.3"), ("21.4", "15.4"), ("21.5", "15.5"),
        ("21.6", "15.6"),
        ("22.0", "16.0"), ("22.1", "16.1"), ("22.2", "16.2"), ("22.3", "16.3"), ("22.4", "16.4"), ("22.5", "16.5"),
        ("22.6", "16.6"),
        ("23.0", "17.0"), ("23.1", "17.1"), ("23.2", "17.2"), ("23.3", "17.3"), ("23.4", "17.4"), ("23.5", "17.5"),
        ("23.6", "17.6"),
        ("24.0", "18.0"), ("24.1", "18.1"), ("24.2", "18.2"), ("24.3", "18.3"), ("24.4", "18.4"), ("24.5", "18.5"),
        ("24.6", "18.6"),
        ("25.0", "26.0"), ("25.1", "26.1"), ("25.2", "26.2"), ("25.3", "26.3"), ("25.4", "26.4"), ("25.5", "26.5"),
        ("25.6", "26.6"),
    ]

    /// The entries by Darwin major.minor.
    private static let byDarwin: [String: String] = Dictionary(
        entries.map { ($0.darwin, $0.ios) }, uniquingKeysWith: { first, _ in first })

    /// The iOS major.minor for a Darwin version as a UA writes it after `Darwin/` ("23.4.0" or
    /// "23.4"; the patch, always 0 on iOS, is not read but must be digits); nil when it is
    /// malformed or not in the table.
    static func ios(darwin: String) -> String? {
        let parts = darwin.split(separator: ".", maxSplits: 3, omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3,
            parts.allSatisfy({ (1...3).contains($0.utf8.count) && $0.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } })
        else { return nil }
        return byDarwin["\(parts[0]).\(parts[1])"]
    }
}
