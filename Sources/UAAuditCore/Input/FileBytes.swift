import Glibc

/// Whole-file reads for small files (configs, rules), bounded so a wrong path cannot eat memory.
package enum FileBytes {
    package static func readAll(path: String, limit: Int) throws(InputError) -> [UInt8] {
        let fd: Int32
        do {
            fd = try Syscalls.open(path, flags: O_RDONLY)
        } catch {
            throw InputError(path: path, reason: error.description)
        }
        defer { Syscalls.close(fd) }
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let n: Int
            do {
                n = try Syscalls.read(fd, into: &chunk)
            } catch {
                throw InputError(path: path, reason: error.description, offset: Int64(result.count))
            }
            if n == 0 { break }
            result.append(contentsOf: chunk[0..<n])
            if result.count > limit {
                throw InputError(path: path, reason: "larger than \(limit) bytes; is this the right file?")
            }
        }
        return result
    }
}
