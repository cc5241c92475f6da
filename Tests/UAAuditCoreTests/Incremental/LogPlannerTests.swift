import Foundation
import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

/// The planner over a log directory in memory: each scenario (the cases of issue 11 and the
/// rotations `run` handled before) gives the exact read steps and gaps of its last run, and
/// every line written is counted once, or lies in a gap that says so.
@Suite struct LogPlannerTests {
    struct Scenario: Sendable, CustomTestStringConvertible {
        var name: String
        /// Writes, rotates and runs; the last run is the test's.
        var setUp: @Sendable (MemoryDisk) -> Void
        /// The last run's read steps and gaps, from the disk just before it.
        var expected: @Sendable (MemoryDisk) -> (reads: [String], gaps: [String])
        /// Lines that are never counted: those in the gaps.
        var missed = 0

        var testDescription: String { name }
    }

    static let scenarios: [Scenario] = [
        // Issue 11, case 1: an empty log fingerprinted as 0 bytes matched any file.
        Scenario(
            name: "empty log at a run, then copytruncate",
            setUp: { d in
                d.create()
                d.run()
                d.write(2000)
                d.copytruncate()
                d.write(5)
            },
            expected: { d in (["access.log.1 0..\(d.size("access.log.1"))", "access.log 0..\(d.size())"], []) }),
        Scenario(
            name: "empty log at a run, then create + delaycompress twice, the inode reused",
            setUp: { d in
                d.create()
                d.run()
                d.write(100)
                d.mv("access.log", "access.log.1")
                d.create()
                d.write(300)
                d.mv("access.log.1", "access.log.2")
                d.gzip("access.log.2")  // frees the first log's inode
                d.mv("access.log", "access.log.1")
                d.create()  // and the new log gets it
                d.write(300)
            },
            expected: { d in
                (
                    [
                        "access.log.2.gz 0..end", "access.log.1 0..\(d.size("access.log.1"))",
                        "access.log 0..\(d.size())",
                    ], []
                )
            }),
        Scenario(
            name: "empty log at a run, then dateext + delaycompress twice, the inode reused",
            setUp: { d in
                d.create()
                d.run()
                d.write(400)
                d.mv("access.log", "access.log-20261129")
                d.create()
                d.write(800)
                d.gzip("access.log-20261129")
                d.mv("access.log", "access.log-20261130")
                d.create()
                d.write(400)
            },
            expected: { d in
                (
                    [
                        "access.log-20261129.gz 0..end", "access.log-20261130 0..\(d.size("access.log-20261130"))",
                        "access.log 0..\(d.size())",
                    ], []
                )
            }),
        Scenario(
            name: "a short log (one line) at a run, then copytruncate",
            setUp: { d in
                d.write(1)
                d.run()
                d.write(30)
                d.copytruncate()
                d.write(3)
            },
            expected: { d in
                (
                    [
                        "access.log.1 \(d.lineEnd(1, of: "access.log.1"))..\(d.size("access.log.1"))",
                        "access.log 0..\(d.size())",
                    ], []
                )
            }),
        // A run while logrotate's copy is still being written: the copy is not read then.
        Scenario(
            name: "empty log at a run, then a run during copytruncate's copy (empty copy so far)",
            setUp: { d in
                d.create()
                d.run()
                d.write(300)
                d.copyStarted(bytes: 0)
                d.run()
                d.copyFinished()
                d.write(10)
            },
            expected: { d in (["access.log 0..\(d.size())"], []) }),
        Scenario(
            name: "a run during copytruncate's copy (a few bytes copied so far)",
            setUp: { d in
                d.write(40)
                d.run()
                d.write(300)
                d.copyStarted(bytes: 100)
                d.run()
                d.copyFinished()
                d.write(10)
            },
            expected: { d in (["access.log 0..\(d.size())"], []) }),
        Scenario(
            name: "a run during copytruncate's copy (8 KiB copied so far)",
            setUp: { d in
                d.create()
                d.run()
                d.write(300)
                d.copyStarted(bytes: 8192)
                d.run()
                d.copyFinished()
                d.write(10)
            },
            expected: { d in (["access.log 0..\(d.size())"], []) }),
        Scenario(
            name: "cut in place exactly at a checkpoint, nothing appended",
            setUp: { d in
                d.write(3000)
                d.run()
                d.truncate(to: Int(keptPrefix(d, cut: d.lineEnd(1500))))
            },
            expected: { _ in ([], []) }),
        Scenario(
            name: "truncated to nothing and rewritten: the old tail is a gap",
            setUp: { d in
                d.write(40)
                d.run()
                d.write(6)
                d.truncate(to: 0)
                d.write(4)
            },
            expected: { d in (["access.log 0..\(d.size())"], ["~access.log \(d.state!.current!.offset)..?"]) },
            missed: 6),
        // Issue 11, case 5: rotated files beyond the planner's limit.
        Scenario(
            name: "twenty numbered rotations between two runs",
            setUp: { d in
                d.write(30)
                d.run()
                for _ in 0..<20 {
                    d.write(3)
                    rotateNumbered(d)
                }
                d.write(2)
            },
            expected: { d in
                let newer = (1...19).reversed().map { "access.log.\($0)" }
                return (
                    ["access.log.20 \(d.state!.current!.offset)..\(d.size("access.log.20"))"]
                        + newer.suffix(16).map { "\($0) 0..\(d.size($0))" } + ["access.log 0..\(d.size())"],
                    newer.prefix(3).map { "\($0) 0..\(d.size($0))" }
                )
            }, missed: 9),
        // Review of issue 11, F1: the log empty at a run, then its file deleted: a gap, not a silent loss.
        Scenario(
            name: "empty log at a run, then rotate 1 + create twice, the first file deleted",
            setUp: { d in
                d.reusesInodes = false
                d.create()
                d.run()
                d.write(500)
                d.mv("access.log", "access.log.1")
                d.create()
                d.write(300)
                d.mv("access.log", "access.log.1")  // the 500-line file deleted
                d.create()
                d.write(200)
            },
            expected: { d in
                (["access.log.1 0..\(d.size("access.log.1"))", "access.log 0..\(d.size())"], ["~access.log 0..?"])
            }, missed: 500),
        Scenario(
            name: "empty log at a run, then written, deleted and reopened (rotate 0 + create)",
            setUp: { d in
                d.reusesInodes = false
                d.create()
                d.run()
                d.write(500)
                d.rm("access.log")
                d.create()
                d.write(200)
            },
            expected: { d in (["access.log 0..\(d.size())"], ["~access.log 0..?"]) }, missed: 500),
        Scenario(
            name: "empty log at a run, then rotated away and compressed (no delaycompress)",
            setUp: { d in
                d.reusesInodes = false
                d.create()
                d.run()
                d.write(500)
                d.mv("access.log", "access.log.1")
                d.gzip("access.log.1")
                d.create()
                d.write(200)
            },
            expected: { d in (["access.log.1.gz 0..end", "access.log 0..\(d.size())"], []) }),
        Scenario(
            name: "empty log at a run, then rotate 1 + create twice, the first file's inode reused by the log",
            setUp: { d in
                d.create()
                d.run()
                d.write(500)
                d.mv("access.log", "access.log.1")
                d.create()
                d.write(300)
                d.mv("access.log", "access.log.1")  // the 500-line file deleted, its inode freed
                d.create()  // and given to the new log
                d.write(200)
            },
            expected: { d in
                (["access.log.1 0..\(d.size("access.log.1"))", "access.log 0..\(d.size())"], ["~access.log 0..?"])
            }, missed: 500),
        Scenario(
            name: "empty log at a run, then written, deleted and reopened on the same inode number",
            setUp: { d in
                d.create()
                d.run()
                d.write(500)
                d.rm("access.log")
                d.create()
                d.write(200)
            },
            expected: { d in (["access.log 0..\(d.size())"], ["~access.log 0..?"]) }, missed: 500),
        // Review of issue 11, F8: two generations with the same first 4 KiB are not a copy.
        Scenario(
            name: "empty log at a run, then mv and create, both generations starting with the same probe lines",
            setUp: { d in
                d.create()
                d.run()
                d.writeProbe(60)
                d.write(300)
                d.mv("access.log", "access.log.1")
                d.create()
                d.writeProbe(60)
                d.write(200)
            },
            expected: { d in (["access.log.1 0..\(d.size("access.log.1"))", "access.log 0..\(d.size())"], []) }),
        Scenario(
            name: "same probe lines first, the new generation longer than the rotated one",
            setUp: { d in
                d.writeProbe(60)
                d.write(10)
                d.run()
                d.write(100)
                d.mv("access.log", "access.log.1")
                d.create()
                d.writeProbe(60)
                d.write(400)
            },
            expected: { d in
                (
                    [
                        "access.log.1 \(d.lineEnd(70, of: "access.log.1"))..\(d.size("access.log.1"))",
                        "access.log 0..\(d.size())",
                    ], []
                )
            }),
        // The rotations run handled before issue 11, kept exact.
        Scenario(
            name: "mv and reopen, nginx writing on to the renamed file",
            setUp: { d in
                d.write(40)
                d.run()
                d.write(25)
                d.mv("access.log", "access.log.1")
                d.write(5, to: "access.log.1")
                d.write(20)
            },
            expected: { d in
                (
                    [
                        "access.log.1 \(d.lineEnd(40, of: "access.log.1"))..\(d.size("access.log.1"))",
                        "access.log 0..\(d.size())",
                    ], []
                )
            }),
        Scenario(
            name: "the renamed file gets more lines after the run that found it",
            setUp: { d in
                d.write(40)
                d.run()
                d.mv("access.log", "access.log.1")
                d.write(20)
                d.run()
                d.write(7, to: "access.log.1")
                d.write(3)
            },
            expected: { d in
                (
                    [
                        "access.log.1 \(d.lineEnd(40, of: "access.log.1"))..\(d.size("access.log.1"))",
                        "access.log \(d.lineEnd(20))..\(d.size())",
                    ], []
                )
            }),
        Scenario(
            name: "compress without delay",
            setUp: { d in
                d.write(40)
                d.run()
                d.write(9)
                d.mv("access.log", "access.log.1")
                d.gzip("access.log.1")
                d.create()
                d.write(4)
            },
            expected: { d in (["access.log.1.gz \(d.state!.current!.offset)..end", "access.log 0..\(d.size())"], []) }),
        Scenario(
            name: "copytruncate between runs",
            setUp: { d in
                d.write(40)
                d.run()
                d.write(6)
                d.copytruncate()
                d.write(4)
            },
            expected: { d in
                (
                    [
                        "access.log.1 \(d.state!.current!.offset)..\(d.size("access.log.1"))",
                        "access.log 0..\(d.size())",
                    ],
                    []
                )
            }),
        Scenario(
            name: "copytruncate twice, the first copy compressed (delaycompress)",
            setUp: { d in
                d.write(40)
                d.run()
                d.write(6)
                d.copytruncate()
                d.write(30)
                d.mv("access.log.1", "access.log.2")
                d.gzip("access.log.2")
                d.copytruncate()
                d.write(2)
            },
            expected: { d in
                (
                    [
                        "access.log.2.gz \(d.state!.current!.offset)..end", "access.log.1 0..\(d.size("access.log.1"))",
                        "access.log 0..\(d.size())",
                    ], []
                )
            }),
        Scenario(
            name: "the followed rotated file compressed: what follows its offset is looked for inside",
            setUp: { d in
                d.write(40)
                d.run()
                d.mv("access.log", "access.log.1")
                d.create()
                d.run()
                d.write(2, to: "access.log.1")
                d.gzip("access.log.1")
            },
            expected: { d in (["access.log.1.gz \(d.state!.draining[0].offset)..end"], []) }),
        // The torture harness on CI: copytruncate's copy ended inside a line nginx was writing.
        Scenario(
            name: "copytruncate tore the last line: the piece waits while fresh, then is read once",
            setUp: { d in
                d.write(10)
                d.run()
                d.write(5)
                d.copytruncate(tearingLast: 30)
                d.write(3)
                d.run()
                // A fresh partial line may still be written to: not read yet.
                #expect(d.state!.draining[0].offset == Int64(d.lineEnd(14, of: "access.log.1")))
                d.wait(seconds: 61)
            },
            expected: { d in
                (["access.log.1 \(d.lineEnd(14, of: "access.log.1"))..\(d.size("access.log.1"))"], [])
            }),
        Scenario(
            name: "a rotated file's partial line under a minute old is left for the next run",
            setUp: { d in
                d.write(10)
                d.run()
                d.write(5)
                d.copytruncate(tearingLast: 30)
                d.wait(seconds: 59)
            },
            expected: { d in
                (["access.log.1 \(d.lineEnd(10, of: "access.log.1"))..\(d.lineEnd(14, of: "access.log.1"))"], [])
            },
            missed: 1),
        // Issue 29: the same bytes under a new inode are the same log.
        Scenario(
            name: "the live log copied and moved over itself (cp + mv), then written on",
            setUp: { d in
                d.write(3000)
                d.run()
                d.write(20)
                d.replace()
                d.write(10)
            },
            expected: { d in (["access.log \(d.lineEnd(3000))..\(d.size())"], []) }),
        Scenario(
            name: "the live log replaced by a copy with its time (rsync -a, a restore), nothing new",
            setUp: { d in
                d.write(3000)
                d.run()
                d.replace(keepTime: true)
            },
            expected: { _ in ([], []) }),
        Scenario(
            name: "the live log saved by rename with the unread lines after the offset, then written on",
            setUp: { d in
                d.write(40)
                d.run()
                d.write(5)
                d.replace()
                d.write(3)
            },
            expected: { d in (["access.log \(d.lineEnd(40))..\(d.size())"], []) }),
        Scenario(
            name: "the live log saved by rename with a line before the offset edited",
            setUp: { d in
                d.write(3000)
                d.run()
                let at = d.lineEnd(2000) + 10
                d.replace { bytes in
                    var b = bytes
                    b[at] = UInt8(ascii: "X")
                    return b
                }
                d.write(10)
            },
            expected: { d in
                let kept = keptPrefix(d, cut: d.lineEnd(2000) + 10)
                return ([], ["~access.log \(kept)..\(d.size())"])
            }, missed: 10),
        Scenario(
            name: "restored from an older backup (a prefix of what was read), then written on",
            setUp: { d in
                d.write(3000)
                d.run()
                d.replace { Array($0.prefix(d.lineEnd(2000))) }
                d.write(10)
            },
            expected: { d in
                let kept = keptPrefix(d, cut: d.lineEnd(2000))
                return ([], ["~access.log \(kept)..\(d.size())"])
            }, missed: 10),
        // Issue 29: a file named like a rotated one, while the log provably went on (same inode,
        // its first bytes and last chunk as they were), holds none of its lines: not read.
        newFileWhileTheLogGoesOn("access.log.2026-13-45"),
        newFileWhileTheLogGoesOn("access.log-2026"),
        newFileWhileTheLogGoesOn("access.log.12"),
        newFileWhileTheLogGoesOn("access.log-1999999999"),
        newFileWhileTheLogGoesOn("access.log.12.gz"),
        // copytruncate changes the log's first bytes: its copy is still found and finished.
        Scenario(
            name: "copytruncate of a long log, then written on",
            setUp: { d in
                d.write(3000)
                d.run()
                d.write(20)
                d.copytruncate(to: "access.log-20261129")
                d.write(10)
            },
            expected: { d in
                (
                    [
                        "access.log-20261129 \(d.lineEnd(3000, of: "access.log-20261129"))..\(d.size("access.log-20261129"))",
                        "access.log 0..\(d.size())",
                    ], []
                )
            }),
    ]

    /// A new file `name` of 50 lines beside a log of 3000 lines that was only appended to.
    static func newFileWhileTheLogGoesOn(_ name: String) -> Scenario {
        Scenario(
            name: "\(name) appears while the log goes on",
            setUp: { d in
                d.write(3000)
                d.run()
                d.write(20)
                let plain = name.hasSuffix(".gz") ? String(name.dropLast(3)) : name
                d.write(50, to: plain)
                if plain != name { d.gzip(plain) }
                d.write(10)
            },
            expected: { d in (["access.log \(d.lineEnd(3000))..\(d.size())"], []) }, missed: 50)
    }

    /// The end of the checkpoints the cut kept (they are consecutive from the start).
    static func keptPrefix(_ d: MemoryDisk, cut: Int) -> Int64 {
        d.state?.current?.checkpoints?.last { $0.end <= Int64(cut) }?.end ?? 0
    }

    /// logrotate's numbered scheme without compression: .N to .N+1 from the oldest, the log to .1.
    static func rotateNumbered(_ d: MemoryDisk) {
        let numbers = d.entries.keys.compactMap { Int($0.dropFirst("access.log.".count)) }.sorted(by: >)
        for n in numbers { d.mv("access.log.\(n)", "access.log.\(n + 1)") }
        d.mv("access.log", "access.log.1")
        d.create()
    }

    @Test(arguments: scenarios)
    func lastRunReadsExactlyThisAndCountsEveryLineOnce(_ scenario: Scenario) {
        let d = MemoryDisk()
        scenario.setUp(d)
        let expected = scenario.expected(d)
        let plan = d.run()
        #expect(plan.errors.isEmpty)
        #expect(plan.reads == expected.reads)
        #expect(plan.gapRanges == expected.gaps)
        #expect(d.doubled.isEmpty, "counted twice: \(d.doubled.prefix(5))…")
        #expect(d.missed.count == scenario.missed)
        // A run after it with nothing new reads nothing and finds no gap.
        let again = d.run()
        #expect(again.reads == [])
        #expect(again.gapRanges == [])
    }

    // A review's race: a run whose listing missed a rotated file (renamed between being listed
    // and opened) must not take it for a new one at the next run.
    @Test func aRotatedFileMissingFromOneListingIsNotReadAgain() {
        for compressed in [false, true] {
            let d = MemoryDisk()
            d.write(30)
            for _ in 0..<3 {
                Self.rotateNumbered(d)
                d.write(20)
            }
            if compressed { d.gzip("access.log.3") }
            d.run()
            Self.rotateNumbered(d)
            d.write(10)
            // The oldest file, renamed from .3 to .4 while this run listed the directory.
            let oldest = compressed ? "access.log.4.gz" : "access.log.4"
            if compressed { d.mv("access.log.3.gz", oldest) }
            let during = d.run(missing: [oldest])
            #expect(during.reads == ["access.log 0..\(d.size())"])
            #expect(during.gapRanges == [])
            let offset = d.size()
            d.write(5)
            let next = d.run()
            #expect(next.reads == ["access.log \(offset)..\(d.size())"])
            #expect(next.gapRanges == [])
            #expect(d.doubled.isEmpty, "counted twice: \(d.doubled.prefix(5))…")
            // The first run reads none of the rotated files from before it (run.md): 70 lines.
            #expect(d.missed.count == 70)
            // Remembered for good, not only for one run.
            #expect(d.run().reads == [])
        }
    }

    /// The second review's race: the listing missed the old log itself (renamed to .1, then
    /// compressed and deleted as it was listed). Not a gap, and not read later as a file seen
    /// before: the plan says its files changed, and the next listing finds it.
    @Test func aRotatedLogMissingFromTheListingIsListedAgain() {
        for compressed in [false, true] {
            let d = MemoryDisk()
            d.write(30)
            d.run()
            let offset = d.size()
            d.write(10)
            d.mv("access.log", "access.log.1")
            d.create()
            d.write(5)
            if compressed { d.gzip("access.log.1") }
            let rotated = compressed ? "access.log.1.gz" : "access.log.1"
            let during = d.run(missing: [rotated])
            #expect(
                during.changed == "\(d.logPath): rotated, and not found while a rotation renamed files; listed again")
            #expect(during.gapRanges == [])
            let next = d.run()
            #expect(next.changed == nil)
            #expect(
                next.reads == [
                    compressed ? "\(rotated) \(offset)..end" : "\(rotated) \(offset)..\(d.size(rotated))",
                    "access.log 0..\(d.size())",
                ])
            #expect(next.gapRanges == [])
            #expect(d.doubled.isEmpty)
            #expect(d.missed.isEmpty)
        }
    }

    @Test func filesSeenBeforeAreRememberedUpToALimitNewestFirst() {
        let d = MemoryDisk()
        d.write(3)
        d.run()
        let snapshot = d.snapshot()
        let identity = snapshot.log.identity
        let gone = (0..<(LogPlanner.maxKnown + 10)).map { i in
            RunState.KnownFile(
                identity: FileIdentity(
                    device: identity.device, inode: 900_000 + UInt64(i), fingerprint: identity.fingerprint,
                    fingerprintBytes: identity.fingerprintBytes),
                size: 10, modified: Int64(i))
        }
        let here = RunState.KnownFile(identity: identity, size: 1, modified: 1)
        let known = LogPlanner.known(seen: snapshot, before: [here] + gone)
        #expect(known.count == LogPlanner.maxKnown)
        #expect(known.first == snapshot.known.first)
        // The log's own entry is this snapshot's, not the stale one on its inode.
        #expect(!known.contains(here))
        #expect(
            known.dropFirst().map(\.modified)
                == (10..<(LogPlanner.maxKnown + 10)).reversed().prefix(LogPlanner.maxKnown - 1).map { Int64($0) })
    }

    // Issue 11, case 2: a second `mv` rotation while the first rotated file is being read.
    @Test func aRotationBetweenPlanningAndReadingCannotSwapTheBytes() {
        let d = MemoryDisk()
        d.write(40)
        d.run()
        d.write(300)
        d.mv("access.log", "access.log.1")
        d.write(200)
        let plan = d.plan()
        // Rotated again before the planned steps are read: .1 is now .2, the log .1.
        d.mv("access.log.1", "access.log.2")
        d.mv("access.log", "access.log.1")
        d.create()
        for step in plan.steps { d.count(step) }
        d.state = plan.next
        #expect(d.doubled.isEmpty)
        #expect(d.missed.isEmpty)
        d.write(10)
        let next = d.run()
        #expect(next.reads == ["access.log 0..\(d.size())"])
        #expect(d.doubled.isEmpty)
        #expect(d.missed.isEmpty)
    }

    // Issue 11, case 2: copytruncate while the log is being read. The read from the planned
    // descriptor sees the truncation; the engine plans again and finds the bytes in the copy.
    @Test func copytruncateWhileReadingIsCaughtAndReplanned() throws {
        let d = MemoryDisk()
        d.write(100)
        d.run()
        d.write(3000)
        let plan = d.plan()
        #expect(plan.reads == ["access.log \(d.lineEnd(100))..\(d.size())"])
        d.copytruncate()
        d.write(20)
        let configuration = ScanConfiguration(
            format: try BuiltinFormats.named("ua_log"), rules: RuleSet.builtin(), threads: 1)
        let worker = Worker(configuration: configuration, progress: nil)
        guard case .changed = RunEngine.execute(plan.steps[0], worker: worker) else {
            Issue.record("the truncated read was taken for the planned bytes")
            return
        }
        let again = d.run()
        #expect(
            again.reads == [
                "access.log.1 \(d.lineEnd(100, of: "access.log.1"))..\(d.size("access.log.1"))",
                "access.log 0..\(d.size())",
            ])
        #expect(again.gapRanges == [])
        #expect(d.doubled.isEmpty)
        #expect(d.missed.isEmpty)
    }

    /// Issue 11, case 3, and issue 29: a log cut in place (its first `cut` lines kept), then
    /// written on. The fingerprints of the last lines read find the very line it was cut at:
    /// everything after the cut is read, no gap. Without them (a state written before they
    /// were kept): cut at a checkpoint's end, the chunk after it starts with another line, and
    /// everything after the cut is read; cut inside a chunk, the cut lies before that chunk's
    /// end: what follows the first line starting there is read; before it, an uncertain gap.
    @Test(arguments: [
        (1500, 50), (1500, 2000), (1500, 400), (2999, 10), (1, 3000),
    ])
    func aLogCutInPlaceAndWrittenOnReadsWhatIsProvablyNew(lines: Int, appended: Int) throws {
        for atCheckpoint in [false, true] {
            for fingerprints in [true, false] {
                let d = MemoryDisk()
                d.write(3000)
                d.run()
                let checkpoints = try #require(d.state?.current?.checkpoints)
                #expect(d.state?.current?.recentLines?.count == 3000)
                if !fingerprints { d.state?.current?.recentLines = nil }
                let cut = atCheckpoint ? Int(Self.keptPrefix(d, cut: d.lineEnd(lines))) : d.lineEnd(lines)
                let kept = Self.keptPrefix(d, cut: cut)
                // Cut to nothing is a truncation, not a cut below what was read (its own scenario).
                if atCheckpoint, kept == 0 { continue }
                let next = try #require(checkpoints.first { $0.end > kept })
                d.truncate(to: cut)
                d.write(appended)
                let bytes = try #require(d.entries["access.log"]?.inode.bytes)
                // Without fingerprints: the first line that starts at or after the next
                // chunk's end, if it is on disk.
                var from = Int(kept)
                if fingerprints {
                    from = cut
                } else if cut != Int(kept) {
                    from = bytes.count
                    if Int(next.end) <= bytes.count {
                        from =
                            bytes[Int(next.end) - 1] == 0x0A
                            ? Int(next.end) : (bytes[Int(next.end)...].firstIndex(of: 0x0A)! + 1)
                    }
                }
                let plan = d.run()
                let name =
                    "cut after line \(lines)\(atCheckpoint ? " at a checkpoint" : ""), \(appended) written\(fingerprints ? "" : ", no fingerprints")"
                #expect(plan.reads == (from < bytes.count ? ["access.log \(from)..\(bytes.count)"] : []), "\(name)")
                #expect(
                    plan.gapRanges == (from > Int(kept) && from != cut ? ["~access.log \(kept)..\(from)"] : []),
                    "\(name)")
                #expect(d.doubled.isEmpty, "\(name)")
                let inGap = bytes[cut..<from].filter { $0 == 0x0A }.count
                #expect(d.missed.count == inGap, "\(name)")
                if atCheckpoint || fingerprints { #expect(inGap == 0, "\(name)") }
                #expect(d.run().reads == [])
                // The fingerprints now cover the lines kept and those written since.
                // (Without them, from where reading went on.)
                let after = bytes[from...].filter { $0 == 0x0A }.count
                #expect(d.state?.current?.recentLines?.count == (fingerprints ? Self.lineCount(d) : after), "\(name)")
            }
        }
    }

    static func lineCount(_ d: MemoryDisk) -> Int { d.entries["access.log"]!.inode.bytes.filter { $0 == 0x0A }.count }

    /// Issue 29: a state offset moved into the middle of a line (by hand, or damaged) goes back
    /// to the start of that line, which no run counted (runs only stop after whole lines).
    @Test func aStateOffsetInsideALineGoesBackToTheLineStart() throws {
        let d = MemoryDisk()
        d.write(100)
        d.run()
        d.write(10)
        let offset = try #require(d.state?.current?.offset)
        d.state?.current?.offset = offset + 20
        let plan = d.run()
        #expect(plan.reads == ["access.log \(offset)..\(d.size())"])
        #expect(plan.gapRanges == [])
        #expect(d.doubled.isEmpty)
        #expect(d.missed.isEmpty)
    }

    @Test func checkpointsCoverWhatWasReadAndGrowFromFourKiB() {
        let d = MemoryDisk()
        d.write(3000)
        d.run()
        let checkpoints = d.state?.current?.checkpoints ?? []
        #expect(checkpoints.last?.end == d.size())
        #expect(checkpoints.count > 5)
        var start: Int64 = 0
        for (i, c) in checkpoints.enumerated() {
            #expect(c.end - start <= max(Checkpoints.size(ofChunk: i), d.size() / Checkpoints.spread))
            start = c.end
        }
    }

    // Review of issue 11, F7: checkpoints every 64 KiB grew without bound (8,136 for 532 MB).
    @Test func checkpointsStayBoundedAsTheLogGrowsAndStillFindACut() throws {
        let d = MemoryDisk()
        for _ in 0..<24 {
            d.write(5000)
            d.run()
            let checkpoints = try #require(d.state?.current?.checkpoints)
            #expect(checkpoints.count <= Checkpoints.maxCount)
            #expect(checkpoints.last?.end == d.size())
            #expect(zip(checkpoints, checkpoints.dropFirst()).allSatisfy { $0.end < $1.end })
        }
        #expect(d.size() > 15_000_000)
        let before = d.state?.current?.checkpoints
        #expect(d.run().reads == [])
        #expect(d.state?.current?.checkpoints == before)
        // The fingerprints cover the last 65,536 lines (of 120,000).
        let recent = try #require(d.state?.current?.recentLines)
        #expect(recent.count == LineFingerprints.maxLines)
        #expect(recent.start == Int64(d.lineEnd(120_000 - LineFingerprints.maxLines)))
        // Cut in place to half, then appended to: the chunks below the cut still hold, and the
        // fingerprints find the cut's line.
        let cut = d.lineEnd(60_000)
        let kept = Self.keptPrefix(d, cut: cut)
        #expect(kept > Int64(cut) - Int64(cut) / 16)
        d.truncate(to: cut)
        d.write(50)
        let plan = d.run()
        #expect(plan.reads == ["access.log \(cut)..\(d.size())"])
        #expect(plan.gapRanges == [])
        #expect(d.doubled.isEmpty)
        #expect(d.missed.isEmpty)
        #expect(d.state?.current?.recentLines?.start == recent.start)
        // Cut below the lines fingerprinted: the chunks alone, as before (an uncertain gap).
        let lower = d.lineEnd(30_000)
        let keptLower = Self.keptPrefix(d, cut: lower)
        d.truncate(to: lower)
        d.write(50)
        let again = d.run()
        #expect(again.reads == [])
        #expect(again.gapRanges == ["~access.log \(keptLower)..\(d.size())"])
        #expect(d.doubled.isEmpty)
        #expect(d.missed.count == 50)
    }

    // A state written before chunks were merged (every 64 KiB): loaded, read on, thinned.
    @Test func aStateWithCheckpointsEverySixtyFourKiBIsReadOnAndThinned() throws {
        let d = MemoryDisk()
        d.write(80_000)
        d.run()
        let bytes = try #require(d.entries["access.log"]?.inode.bytes)
        var old: [RunState.Checkpoint] = []
        var start = 0
        while start < bytes.count {
            let blockEnd = min(start + Int(Checkpoints.size(ofChunk: old.count)), bytes.count)
            var cut = blockEnd
            if blockEnd < bytes.count, let nl = bytes[start..<blockEnd].lastIndex(of: 0x0A) { cut = nl + 1 }
            old.append(RunState.Checkpoint(end: Int64(cut), hash: Checkpoints.hash(Array(bytes[start..<cut]))))
            start = cut
        }
        #expect(old.count > 2 * Checkpoints.maxCount)
        d.state?.current?.checkpoints = old
        d.write(10)
        let plan = d.run()
        #expect(plan.reads == ["access.log \(bytes.count)..\(d.size())"])
        #expect(plan.gapRanges == [])
        let thinned = try #require(d.state?.current?.checkpoints)
        #expect(thinned.count <= Checkpoints.maxCount)
        #expect(thinned.last?.end == d.size())
        let file = d.snapshot().log
        #expect(try Checkpoints.verifiedPrefix(thinned, file: file, size: d.size()) == (d.size(), thinned.count))
        #expect(d.doubled.isEmpty)
        #expect(d.missed.isEmpty)
    }
}
