import Glibc
import UAAuditInput

/// Runs a program and collects what it printed (FoundationEssentials has no `Process`): its
/// standard output through a pipe, read to the end, and the first bytes of its standard
/// error through a temporary file, not a second pipe: with one pipe read to its end while
/// the other fills (64 KiB of warnings), both processes would wait forever.
struct ChildProcess {
    var status: Int32
    var output: [UInt8]
    /// The first 4 KiB the program wrote to standard error.
    var messages: [UInt8]

    enum Failure: Error {
        /// The temporary file for standard error could not be made, in that directory.
        case noTemporaryFile(String)
        /// The program could not be started; says why.
        case cannotStart(String)
    }

    static func run(_ path: String, arguments: [String]) throws(Failure) -> ChildProcess {
        let directory = "/tmp"
        var template = Array("\(directory)/uaaudit-child-XXXXXX".utf8CString)
        let errFD = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard errFD >= 0 else { throw .noTemporaryFile(directory) }
        unlink(template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
        defer { close(errFD) }
        var pipeFDs: [Int32] = [-1, -1]
        guard pipe(&pipeFDs) == 0 else { throw .cannotStart(Syscalls.messageFor(errno: errno)) }
        // Only the dup2'd copies reach the child (the one for a concurrent spawn too).
        for fd in pipeFDs + [errFD] { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipeFDs[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errFD, 2)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var pid: pid_t = 0
        let started = posix_spawn(&pid, path, &actions, nil, argv, environ)
        close(pipeFDs[1])
        defer { close(pipeFDs[0]) }
        guard started == 0 else { throw .cannotStart(Syscalls.messageFor(errno: started)) }
        let output = (try? Syscalls.readToEnd(pipeFDs[0])) ?? []
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        var messages = [UInt8](repeating: 0, count: 4096)
        let got = messages.withUnsafeMutableBytes { pread(errFD, $0.baseAddress, $0.count, 0) }
        messages = Array(messages.prefix(max(got, 0)))
        // WIFEXITED / WEXITSTATUS are macros: exited when the low 7 bits are 0.
        let exited = status & 0x7F == 0
        return ChildProcess(
            status: exited ? (status >> 8) & 0xFF : 128 + (status & 0x7F), output: output, messages: messages)
    }
}
