import Foundation
import Testing

/// `uaaudit scan` writing its files where the disk is full or mounted read-only: a message
/// that names the file and the cause, exit 6, the previous file byte for byte, no temp file.
@Suite struct ScanOutputFaultTests {
    /// Each output file of scan: its flag, a file name, and the message when it cannot be written.
    enum Output: String, CaseIterable, CustomTestStringConvertible {
        case out = "--out"
        case html = "--html"
        case prom = "--prom"
        var testDescription: String { rawValue }
        var name: String { ["--out": "report.json", "--html": "report.html", "--prom": "uaaudit.prom"][rawValue]! }

        func message(_ path: String, _ cause: String) -> String {
            switch self {
            case .out: return "cannot write report \(path): \(cause); the previous report is untouched"
            case .html: return "cannot write HTML report \(path): \(cause); the previous one is untouched"
            case .prom: return "cannot write metrics \(path): \(cause); the previous one is untouched"
            }
        }
    }

    @Test(.requires(.tmpfs), arguments: DiskFault.allCases, Output.allCases)
    func aFileThatCannotBeWrittenIsNamedAndTheOldOneKept(fault: DiskFault, output: Output) throws {
        let flag = output.rawValue
        guard let fs = try Tmpfs.mount(kib: 256, test: "scan \(flag) on a \(fault) disk") else { return }
        let dir = try Scratch()
        let log = try dir.write("a.log", CommandLineTests.alertLog())
        let file = fs.file(output.name)
        #expect(try Tool.run(["scan", "-q", flag, file, log]).status == 0)
        let before = try contents(file)
        try dir.write("a.log", CommandLineTests.alertLog() + CommandLineTests.alertLog())  // a different report

        try fault.apply(to: fs)
        let failed = try Tool.run(["scan", "-q", flag, file, log])
        #expect(failed.status == 6)
        #expect(failed.stderr == "uaaudit: \(output.message(file, fault.cause))\n")
        #expect(try contents(file) == before)
        #expect(try fs.names() == [output.name])

        try fault.undo(on: fs)
        #expect(try Tool.run(["scan", "-q", flag, file, log]).status == 0)
        #expect(try contents(file) != before)
        #expect(try fs.names() == [output.name])
    }

    /// Reports are for dashboards and colleagues: 0644 whatever the umask of the job.
    @Test func outputFilesAreReadableUnderAStrictUmask() throws {
        let dir = try Scratch()
        let log = try dir.write("a.log", CommandLineTests.alertLog())
        let files = Output.allCases.map { dir.path($0.name) }
        let args = ["scan", "-q"] + zip(Output.allCases, files).flatMap { [$0.rawValue, $1] } + [log]
        let result = try Tool.run(args, launcher: Tool.umask("077"))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try files.map(Tool.mode) == [0o644, 0o644, 0o644])
    }
}
