import FoundationEssentials
import Glibc
import UAAuditCLI

exit(UAAuditCLI.run(Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment))
