import Foundation
import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

@Suite struct RotationCandidatesTests {
    @Test(arguments: [
        (".1", true), (".0", true), (".12", true), (".1.gz", true), ("-20261129", true), ("-2026112917", true),
        ("-20261129.gz", true), ("", false), (".gz", false), (".old", false), ("_1", false),
        (".1a", false), ("-", false), (".12345678901", false),
        ("-20261129-1764590000", true), ("-20261129_173000.gz", true), ("-a1", false),
        // Issue 29: the dateformats that were not recognised.
        ("-1764590000", true), ("-2026-11-29", true), ("-2026-11-29-1764590000.gz", true),
        (".2026-11-29_173000", true), ("-2026-", true), ("20261129", true),
        // Another log named with a number is not a rotation: a year or the epoch seconds must be there.
        ("-8080", false), ("-443.gz", false), ("-123456789", false), ("-20261399", false), ("-12-07", false),
        ("-2026.json", false), ("-2026/11", false),
        // Issue 29: literal letters (any byte but `/` and NUL) between fields, as logrotate allows;
        // before the first field and after the last only punctuation, so that backups, exports and
        // other compressors' files are not read as rotations.
        ("-2026-W50", true), ("-2026week50", true), ("-20261207T100000", true), ("-2026-W50-1796637600.gz", true),
        ("-2026 11", true), ("-2026-W50.gz", true), ("-2026-W-", false),
        (".bak", false), ("-old", false), (".1.bak", false), (".2026.bak", false), ("-20261207.old", false),
        ("-W50-2026", false), ("-2026-W", false),
        ("-2026-W/50", false), ("-12W07", false),
        // Issue 29 review: any `compressext` gzip is given (read by its magic number), and other
        // compressors' rotations (listed, to be named where lines are missing; never read).
        (".1.gzip", true), ("-20261129.z", true), (".1.Z", true), (".1.bz2", true), ("-20261129.xz", true),
        ("-2026.zst", true), (".2026-11-29.bz2", true), (".1.gz.bz2", false), (".bz2", false), (".1.tar", false),
    ])
    func rotationSuffixes(suffix: String, accepted: Bool) {
        #expect(RotationCandidates.isRotationSuffix(Substring(suffix)) == accepted)
    }

    /// logrotate's `dateformat` grammar: the specifiers it allows, in any order, between any
    /// separators, each written as strftime writes it for one instant (2026-12-07 09:05:03 UTC).
    static let specifiers: [(String, String)] = [
        ("%Y", "2026"), ("%m", "12"), ("%d", "07"), ("%H", "09"), ("%M", "05"), ("%S", "03"), ("%V", "50"),
        ("%s", "1796634303"),
    ]
    static let separators = ["-", "_", ".", "", "+", "@", ":", "~"]

    /// Every sequence of one to four distinct specifiers, each joined by the separators in
    /// turn, as (format, name suffix).
    static func generatedFormats() -> [(format: String, suffix: String)] {
        var out: [(String, String)] = []
        func extend(_ chosen: [Int]) {
            if !chosen.isEmpty {
                var format = ""
                var suffix = ""
                for (k, index) in chosen.enumerated() {
                    let separator = separators[(out.count + k) % separators.count]
                    format += separator + specifiers[index].0
                    suffix += separator + specifiers[index].1
                }
                out.append((format, suffix))
            }
            guard chosen.count < 4 else { return }
            for i in specifiers.indices where !chosen.contains(i) { extend(chosen + [i]) }
        }
        extend([])
        return out
    }

    @Test func everyDateformatWithAYearOrTheEpochIsARotation() {
        let formats = Self.generatedFormats()
        #expect(formats.count == 2080)
        var recognised = 0
        for (format, suffix) in formats {
            let anchored = format.contains("%Y") || format.contains("%s")
            for name in [suffix, suffix + ".gz"] {
                let accepted = RotationCandidates.isRotationSuffix(Substring(name))
                // Without a year or the epoch, only a number after a dot is (it is one of logrotate's own).
                let numbered = suffix.first == "." && suffix.dropFirst().allSatisfy(\.isNumber) && suffix.count <= 11
                #expect(accepted == (anchored || numbered), "dateformat \(format): \(name)")
                if accepted { recognised += 1 }
            }
        }
        #expect(recognised == 3140)
    }

    /// The same grammar with letters between the specifiers (`-%Y-W%V`, `-%Yweek%V`,
    /// `-%Y%m%dT%H%M%S`): every sequence of one to four, the first after a `-`.
    @Test func everyDateformatWithLettersBetweenItsFieldsIsARotation() {
        let letters = ["W", "week", "T", "-W", "x_", " at "]
        var formats: [(format: String, suffix: String)] = []
        func extend(_ chosen: [Int]) {
            if !chosen.isEmpty {
                var format = "-"
                var suffix = "-"
                for (k, index) in chosen.enumerated() {
                    let literal = k == 0 ? "" : letters[(formats.count + k) % letters.count]
                    format += literal + Self.specifiers[index].0
                    suffix += literal + Self.specifiers[index].1
                }
                formats.append((format, suffix))
            }
            guard chosen.count < 4 else { return }
            for i in Self.specifiers.indices where !chosen.contains(i) { extend(chosen + [i]) }
        }
        extend([])
        #expect(formats.count == 2080)
        var recognised = 0
        for (format, suffix) in formats {
            let anchored = format.contains("%Y") || format.contains("%s")
            for name in [suffix, suffix + ".gz"] {
                let accepted = RotationCandidates.isRotationSuffix(Substring(name))
                #expect(accepted == anchored, "dateformat \(format): \(name)")
                if accepted { recognised += 1 }
            }
        }
        #expect(recognised == 3128)
    }

    @Test func listsRotatedSiblingsOldestFirst() throws {
        let dir = try TempDirectory()
        for (name, age) in [
            ("access.log.2.gz", 300), ("access.log.1", 200), ("access.log", 0), ("error.log.1", 100),
            ("access.log.bak", 50), ("access.log-20261128", 400),
        ] {
            let path = try dir.write(name, Array(name.utf8))
            try FileManager.default.setAttributes(
                [.modificationDate: Date(timeIntervalSinceNow: -Double(age))], ofItemAtPath: path)
        }
        let found = RotationCandidates.list(for: dir.path("access.log"))
        #expect(
            found.map { AtomicFile.baseName(of: $0.path) } == [
                "access.log-20261128", "access.log.2.gz", "access.log.1",
            ])
        #expect(found.map(\.compressed) == [false, true, false])
    }

    /// Names that are there but are no rotated file (a dangling link, a directory) are not
    /// "vanished": that is kept for a name gone between the listing and the look at it (a
    /// rotation under way), which makes a run list again; they would make it wait every time.
    @Test func aDanglingLinkOrADirectoryIsNotAVanishedName() throws {
        let dir = try TempDirectory()
        try dir.write("access.log", Array("x\n".utf8))
        try dir.write("access.log.2", Array("y\n".utf8))
        try FileManager.default.createSymbolicLink(atPath: dir.path("access.log.1"), withDestinationPath: "gone")
        try FileManager.default.createDirectory(atPath: dir.path("access.log.3"), withIntermediateDirectories: false)
        let listing = try RotationCandidates.listing(for: dir.path("access.log"))
        #expect(listing.candidates.map { AtomicFile.baseName(of: $0.path) } == ["access.log.2"])
        #expect(listing.vanished == 0)
        // The link and the directory are listed apart (to be named), never as candidates.
        #expect(Set(listing.links.map { AtomicFile.baseName(of: $0.path) }) == ["access.log.1", "access.log.3"])
        let snapshot = try LogSnapshot.open(logPath: dir.path("access.log"))
        #expect(snapshot.rotated.map { AtomicFile.baseName(of: $0.path) } == ["access.log.2"])
        let causes = Dictionary(
            uniqueKeysWithValues: snapshot.skipped.map { (AtomicFile.baseName(of: $0.path), $0.cause) })
        #expect(causes == ["access.log.1": .symbolicLink, "access.log.3": .notRegular(.directory)])
        #expect(snapshot.missed == 0)
    }

    /// Issue 29: a link under a rotated name is never opened, whatever it names (a file root
    /// alone may read, another log); it is skipped, by its own lstat status.
    @Test func aLinkUnderARotatedNameIsSkippedNotOpened() throws {
        let dir = try TempDirectory()
        try dir.write("access.log", Array("x\n".utf8))
        let target = try dir.write("secret", Array("root only\n".utf8))
        try FileManager.default.createSymbolicLink(atPath: dir.path("access.log-20261208"), withDestinationPath: target)
        let snapshot = try LogSnapshot.open(logPath: dir.path("access.log"))
        #expect(snapshot.rotated.isEmpty)
        #expect(snapshot.skipped.map(\.path) == [dir.path("access.log-20261208")])
        #expect(snapshot.skipped.map(\.cause) == [.symbolicLink])
        #expect(snapshot.skipped.allSatisfy { $0.file == nil && $0.status.isSymbolicLink })
        // And opening such a name as a rotated file fails (O_NOFOLLOW), so that a name swapped for
        // a link after it was looked at is not followed either.
        #expect(throws: InputError.self) {
            try LogFile.open(path: dir.path("access.log-20261208"), compressed: false, followingLinks: false)
        }
    }

    /// Issue 29 review: logrotate's `extension` keeps the log's own suffix last, the number or
    /// date before it, and a compressor's suffix after it.
    @Test(arguments: [
        ("access.1.log", true), ("access-20261207.log", true), ("access-20261207.log.gz", true),
        ("access.12.log.gzip", true), ("access-2026-12-07-1796637600.log", true), ("access.log.1", true),
        ("access.log", false), ("access.2.json", false), ("access-8080.log", false), ("access.log.log", false),
        ("error.1.log", false), ("access-20261207.log.bak", false), ("access.1.log.1", false),
    ])
    func extensionKeepsTheLogsSuffixLast(name: String, rotated: Bool) {
        #expect(RotationSuffix.isRotated(name, of: "access.log") == rotated)
    }

    @Test func aLogWithoutAnExtensionHasOnlyItsFullName() {
        #expect(RotationSuffix.isRotated("access_log.1", of: "access_log"))
        #expect(!RotationSuffix.isRotated("access_log.1.log", of: "access_log"))
        #expect(!RotationSuffix.isRotated(".1.hidden", of: ".hidden"))
    }

    @Test func anOutputNamedLikeARotatedLogIsASibling() throws {
        let dir = try TempDirectory()
        let log = dir.path("access.log")
        for name in [
            "access.log.1", "access.log.0", "access.log-20261129", "access.log.3.gz", "access.log-2026112917.gz",
            "access.1.log", "access-20261129.log.gz",
        ] {
            #expect(RotationCandidates.isRotatedSibling(dir.path(name), of: log), "\(name)")
        }
        for name in ["access.log", "access.log.json", "access.log-8080", "report.json", "access.log.lock"] {
            #expect(!RotationCandidates.isRotatedSibling(dir.path(name), of: log), "\(name)")
        }
        let other = try TempDirectory()
        #expect(!RotationCandidates.isRotatedSibling(other.path("access.log.1"), of: log))
    }
}
