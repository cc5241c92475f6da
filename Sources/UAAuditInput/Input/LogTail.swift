import Glibc

/// The last complete lines of a log file, for `doctor`'s check that they parse.
package enum LogTail {
    /// Up to `count` last complete lines (the bytes after the last newline are left out, as
    /// nginx may be writing them), read from at most the last `window` bytes.
    package static func lastLines(path: String, count: Int, window: Int = 256 << 10) throws(InputError) -> [[UInt8]] {
        let fd: Int32
        do {
            // O_NONBLOCK: opening a FIFO must not wait for a writer (it is then refused below).
            fd = try Syscalls.open(path, flags: O_RDONLY | O_NONBLOCK)
        } catch {
            throw InputError(path: path, reason: error.description)
        }
        defer { Syscalls.close(fd) }
        do {
            let info = try Syscalls.fstat(fd)
            guard info.isRegular else { throw InputError(path: path, reason: "not a regular file") }
            let start = max(0, info.size - Int64(window))
            var buffer = [UInt8](repeating: 0, count: Int(info.size - start))
            var filled = 0
            while filled < buffer.count {
                let n = try Syscalls.read(fd, into: &buffer, from: filled, offset: start + Int64(filled))
                if n == 0 { break }
                filled += n
            }
            buffer.removeLast(buffer.count - filled)
            guard let lastNewline = buffer.lastIndex(of: 0x0A) else { return [] }
            var lines = buffer[..<lastNewline].split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
            // A window that starts mid-file starts mid-line: its first piece is not a line.
            if start > 0, !lines.isEmpty { lines.removeFirst() }
            return Array(lines.suffix(count))
        } catch let error as InputError {
            throw error
        } catch {
            throw InputError(path: path, reason: String(describing: error))
        }
    }

    /// The first byte of a regular file that is not white space (within its first 4 KiB), or
    /// nil: not a regular file, unreadable, or blank there. Never waits on a FIFO.
    /// The start of a regular file, read until its first line ends and the next non-blank
    /// byte is found, keeping at most `keep` bytes: what tells a report from a log without
    /// reading a log whole (``Head``). Leading blank bytes are skipped, as by ``firstByte(path:)``.
    package static func head(path: String, keep: Int) -> Head? {
        guard let fd = try? Syscalls.open(path, flags: O_RDONLY | O_NONBLOCK | O_CLOEXEC) else { return nil }
        defer { Syscalls.close(fd) }
        guard (try? Syscalls.fstat(fd).isRegular) == true else { return nil }
        var head = Head()
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        var started = false
        var lineEnded = false
        while true {
            guard let n = try? Syscalls.read(fd, into: &buffer), n > 0 else {
                if !lineEnded { head.lineComplete = true }  // the file ends the first line
                return head
            }
            for b in buffer[..<n] {
                let blank = b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D
                if !started {
                    if blank { continue }
                    started = true
                }
                if lineEnded {
                    if !blank {
                        head.moreAfterLine = true
                        return head
                    }
                } else if b == 0x0A {
                    lineEnded = true
                    head.lineComplete = true
                } else if head.line.count < keep {
                    head.line.append(b)
                } else {
                    return head  // the first line is longer than `keep`: lineComplete stays false
                }
            }
        }
    }

    /// The first line of a file that is not blank (without its newline), whether all of it was
    /// kept (it ended within `keep` bytes), and whether anything but blanks follows it.
    package struct Head: Equatable, Sendable {
        package var line: [UInt8] = []
        package var lineComplete = false
        package var moreAfterLine = false
    }

    static func firstByte(path: String) -> UInt8? {
        guard let fd = try? Syscalls.open(path, flags: O_RDONLY | O_NONBLOCK | O_CLOEXEC) else { return nil }
        defer { Syscalls.close(fd) }
        guard (try? Syscalls.fstat(fd).isRegular) == true else { return nil }
        var buffer = [UInt8](repeating: 0, count: 4096)
        guard let n = try? Syscalls.read(fd, into: &buffer), n > 0 else { return nil }
        return buffer[..<n].first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
    }
}
