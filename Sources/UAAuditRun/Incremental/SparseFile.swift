import Glibc

/// A file that is mostly holes (`truncate -s 50G`, a disk image): no log written by appending
/// has one, and reading a hole's zeros costs as much as reading data (22 s a GiB here, as one
/// endless malformed line), so a rotated candidate that is one is skipped and named instead.
///
/// Holes, not a small allocation alone, decide: a file system that compresses (ZFS, btrfs)
/// allocates a fraction of a text log's size but reports no hole in it.
enum SparseFile {
    /// The least size looked at: a small file costs little to read whatever it holds.
    static let minimumSize: Int64 = 64 << 20

    /// Whether the file open on `fd` (`size` bytes) is at least half holes, by `SEEK_DATA` and
    /// `SEEK_HOLE` over at most ``maxExtents`` extents (more: taken as not sparse).
    static func isMostlyHoles(fd: Int32, size: Int64) -> Bool {
        guard size >= minimumSize else { return false }
        var data: Int64 = 0
        var at: Int64 = 0
        for _ in 0..<maxExtents {
            let start = lseek(fd, off_t(at), seekData)
            if start < 0 { return errno == ENXIO && (size - data) * 2 >= size }  // no data past `at`
            let end = lseek(fd, start, seekHole)
            guard end >= start else { return false }
            data += Int64(end - start)
            at = Int64(end)
            if at >= size { return (size - data) * 2 >= size }
        }
        return false
    }

    static let maxExtents = 4096
    /// lseek(2)'s `SEEK_DATA` and `SEEK_HOLE` on Linux (Glibc exports them only under _GNU_SOURCE).
    private static let seekData: Int32 = 3
    private static let seekHole: Int32 = 4
}
