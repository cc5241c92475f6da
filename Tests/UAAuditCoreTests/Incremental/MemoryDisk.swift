import Foundation

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

/// A log directory in memory for the planner's tables: nginx writing, `mv`, `gzip`,
/// logrotate's `create` (reusing freed inode numbers, as ext4 and tmpfs do), `copytruncate`,
/// in-place cuts; and `run`, which plans over a snapshot and reads the planned steps.
///
/// Every line carries its own number, so that a run can tell which lines it counted: the
/// tests check each written line was counted exactly once, or lies in a recorded gap.
final class MemoryDisk {
    struct Entry {
        var inode: MemoryInode
        var modified: Int64
        var compressed: Bool
    }

    let directory = "/logs"
    var logPath: String { directory + "/access.log" }
    private(set) var entries: [String: Entry] = [:]
    private var clock: Int64 = 1_000_000_000
    private var nextInode: UInt64 = 100
    private var freed: [UInt64] = []
    private var sequence = 0
    /// The state between runs, as `run` commits it.
    var state: RunState.LogState?
    /// Times each line number was counted, and every line number written.
    private(set) var counted: [Int: Int] = [:]
    private(set) var written: [Int] = []

    init() {}

    private func tick() -> Int64 {
        clock += 1_000_000
        return clock
    }

    /// Whether a freed inode number is given to the next file (as ext4 and tmpfs often do).
    var reusesInodes = true

    private func allocate() -> MemoryInode {
        let number =
            (reusesInodes ? freed.popLast() : nil)
            ?? {
                nextInode += 1
                return nextInode
            }()
        return MemoryInode(number: number, born: tick())
    }

    /// An empty file (nginx's reopen or logrotate's `create`).
    func create(_ name: String = "access.log") {
        entries[name] = Entry(inode: allocate(), modified: tick(), compressed: false)
    }

    /// Appends `count` numbered lines (about 170 bytes each) to `name`, creating it if needed.
    func write(_ count: Int, to name: String = "access.log") {
        if entries[name] == nil { create(name) }
        var text = ""
        for _ in 0..<count {
            sequence += 1
            written.append(sequence)
            text +=
                "10.0.0.\(sequence % 250) - - [29/Nov/2026:10:\(String(format: "%02d", sequence / 60 % 60)):\(String(format: "%02d", sequence % 60)) +0000] \"GET /api/v2/me?n=\(sequence)& HTTP/1.1\" 200 2 \"-\" \"MyApp/5.12.1 (iPhone; iOS 17_4)\" rt=0.000\n"
        }
        entries[name]!.inode.bytes += Array(text.utf8)
        entries[name]!.modified = tick()
    }

    /// Appends `count` copies of one line no test counts (a health probe's request, the same each time).
    func writeProbe(_ count: Int, to name: String = "access.log") {
        if entries[name] == nil { create(name) }
        let line =
            "127.0.0.1 - - [29/Nov/2026:00:00:00 +0000] \"GET /health HTTP/1.1\" 200 2 \"-\" \"probe/1.0\" rt=0.000\n"
        entries[name]!.inode.bytes += Array(String(repeating: line, count: count).utf8)
        entries[name]!.modified = tick()
    }

    func mv(_ from: String, _ to: String) {
        if let replaced = entries[to] { freed.append(replaced.inode.number) }
        entries[to] = entries.removeValue(forKey: from)
    }

    func rm(_ name: String) {
        if let gone = entries.removeValue(forKey: name) { freed.append(gone.inode.number) }
    }

    /// `gzip name`: a new file with the same content and time, then the plain one removed.
    func gzip(_ name: String) {
        let plain = entries[name]!
        let packed = allocate()
        packed.bytes = plain.inode.bytes
        entries[name + ".gz"] = Entry(inode: packed, modified: plain.modified, compressed: true)
        rm(name)
    }

    /// logrotate's `copytruncate`: a copy (new inode, new time), then the log emptied in place.
    func copytruncate(to copy: String = "access.log.1") {
        let copied = allocate()
        copied.bytes = entries["access.log"]!.inode.bytes
        entries[copy] = Entry(inode: copied, modified: tick(), compressed: false)
        truncate(to: 0)
    }

    /// `copytruncate` whose copy read the log while nginx was writing its last line: the copy
    /// ends `torn` bytes short of it (a partial line), and the rest is lost with the truncation.
    func copytruncate(tearingLast torn: Int, to copy: String = "access.log.1") {
        let copied = allocate()
        copied.bytes = Array(entries["access.log"]!.inode.bytes.dropLast(torn))
        entries[copy] = Entry(inode: copied, modified: tick(), compressed: false)
        truncate(to: 0)
    }

    /// Time passing with no write.
    func wait(seconds: Int64) {
        clock += seconds * 1_000_000_000
    }

    /// logrotate's `copytruncate` caught half-way: the copy has the log's first `bytes` bytes.
    func copyStarted(bytes: Int, to copy: String = "access.log.1") {
        let copied = allocate()
        copied.bytes = Array(entries["access.log"]!.inode.bytes.prefix(bytes))
        entries[copy] = Entry(inode: copied, modified: tick(), compressed: false)
    }

    /// The rest of a copy begun with ``copyStarted(bytes:to:)``, then the log emptied in place.
    func copyFinished(to copy: String = "access.log.1") {
        entries[copy]!.inode.bytes = entries["access.log"]!.inode.bytes
        entries[copy]!.modified = tick()
        truncate(to: 0)
    }

    /// A new inode with `name`'s bytes (changed by `edit`) renamed over it: `cp` + `mv`, rsync,
    /// a restore, an editor's save by rename. `keepTime` keeps the modification time (rsync -a, tar).
    func replace(
        _ name: String = "access.log", keepTime: Bool = false, edit: ([UInt8]) -> [UInt8] = { $0 }
    ) {
        let old = entries[name]!
        let copy = MemoryInode(number: nextInode + 1, born: tick())
        nextInode += 1
        copy.bytes = edit(old.inode.bytes)
        freed.append(old.inode.number)
        entries[name] = Entry(inode: copy, modified: keepTime ? old.modified : tick(), compressed: false)
    }

    func truncate(_ name: String = "access.log", to size: Int) {
        entries[name]!.inode.bytes.removeLast(entries[name]!.inode.bytes.count - size)
        entries[name]!.modified = tick()
    }

    /// The offset just after the `\n` ending line `n` of the live log (lines counted from 1).
    func lineEnd(_ n: Int, of name: String = "access.log") -> Int {
        var seen = 0
        for (i, b) in entries[name]!.inode.bytes.enumerated() where b == 0x0A {
            seen += 1
            if seen == n { return i + 1 }
        }
        return entries[name]!.inode.bytes.count
    }

    func size(_ name: String = "access.log") -> Int64 { Int64(entries[name]!.inode.bytes.count) }

    /// The log and its rotated siblings, each "opened" as it is now; those in `missing` are left
    /// out, as a listing taken while logrotate renames files can miss one.
    func snapshot(missing: Set<String> = []) -> LogSnapshot {
        func open(_ name: String) -> LogFile {
            let e = entries[name]!
            return LogFile(
                path: directory + "/" + name, inode: e.inode, modified: e.modified, compressed: e.compressed)
        }
        let rotated = entries.keys.filter {
            $0 != "access.log" && $0.hasPrefix("access.log") && !missing.contains($0)
                && RotationCandidates.isRotationSuffix($0.dropFirst("access.log".count))
        }.map(open).sorted { ($0.status.modified, $0.path) < ($1.status.modified, $1.path) }
        var snapshot = LogSnapshot(log: open("access.log"), rotated: rotated, takenAt: clock)
        snapshot.missed = missing.filter { entries[$0] != nil }.count
        return snapshot
    }

    /// Plans over a snapshot of now.
    func plan(_ snapshot: LogSnapshot? = nil) -> LogPlan {
        LogPlanner.plan(logPath: logPath, saved: state, snapshot: snapshot ?? self.snapshot(), detectedAt: "t")
    }

    /// Plans, reads every step from the planned files, and commits: `uaaudit run`.
    @discardableResult
    func run(missing: Set<String> = []) -> LogPlan {
        let plan = plan(snapshot(missing: missing))
        // A plan that says its files changed is not read or committed (RunEngine lists again).
        guard plan.changed == nil else { return plan }
        for step in plan.steps { count(step) }
        state = plan.next
        return plan
    }

    /// Counts the lines of one step, as read from its file now.
    func count(_ step: ReadStep) {
        let end = step.to ?? Int64(step.file.status.size)
        let bytes = (try? step.file.bytes(from: step.from, to: end)) ?? []
        let text = String(decoding: bytes, as: UTF8.self)
        for line in text.split(separator: "\n") {
            guard let at = line.range(of: "?n="), let amp = line[at.upperBound...].firstIndex(of: "&"),
                let n = Int(line[at.upperBound..<amp])
            else { continue }
            counted[n, default: 0] += 1
        }
    }

    /// Lines counted twice or more.
    var doubled: [Int] { counted.filter { $0.value > 1 }.keys.sorted() }
    /// Lines written and never counted.
    var missed: [Int] { written.filter { counted[$0] == nil } }
}

extension LogPlan {
    /// The steps in the planner tests' notation: `access.log.1 120..3520`.
    var reads: [String] { steps.map(\.description) }
    /// The gaps as `file from..to` (`?` for an unknown end), `~` marking an uncertain one.
    var gapRanges: [String] {
        gaps.map {
            "\($0.uncertain == true ? "~" : "")\(AtomicFile.baseName(of: $0.file)) \($0.fromOffset)..\($0.toOffset.map(String.init) ?? "?")"
        }
    }
}
