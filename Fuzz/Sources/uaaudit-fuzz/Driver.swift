import CFuzzerDriver
import Glibc

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

/// One fuzzing binary, many targets: UAAUDIT_FUZZ_TARGET picks one (Fuzz/run.sh sets it).
/// Every target checks properties, not only "no crash"; a broken property is a trap, which
/// libFuzzer reports as a crash with the input that caused it.
@main
struct Driver {
    static func main() {
        let target = getenv("UAAUDIT_FUZZ_TARGET").map { String(cString: $0) } ?? ""
        guard FuzzTargets.names.contains(target) else {
            let message =
                "uaaudit-fuzz: set UAAUDIT_FUZZ_TARGET to one of: \(FuzzTargets.names.joined(separator: ", "))\n"
            _ = message.withCString { write(2, $0, strlen($0)) }
            exit(2)
        }
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(
            LLVMFuzzerRunDriver(&argc, &argv) { data, size in
                let bytes = size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size))
                let name = String(cString: getenv("UAAUDIT_FUZZ_TARGET"))
                FuzzTargets.run(name, bytes)
                return 0
            })
    }
}
