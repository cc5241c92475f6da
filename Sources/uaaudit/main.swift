import FoundationEssentials
import Glibc
import UAAuditCLI

// The arguments as bytes: one that is not UTF-8 (a path with a Latin-1 byte) would become a
// U+FFFD path that names another file, or none; it is refused, named, instead.
let raw = (1..<Int(CommandLine.argc)).map { i -> [UInt8] in
    guard let arg = CommandLine.unsafeArgv[i] else { return [] }
    return Array(
        UnsafeBufferPointer(start: UnsafeRawPointer(arg).assumingMemoryBound(to: UInt8.self), count: strlen(arg)))
}
exit(UAAuditCLI.run(rawArguments: raw, environment: ProcessInfo.processInfo.environment))
