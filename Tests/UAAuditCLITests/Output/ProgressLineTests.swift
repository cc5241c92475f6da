import Testing

@testable import UAAuditCLI

@Suite struct ProgressLineTests {
    static let cases: [(bytes: Int, lines: Int, total: Int, elapsed: Double, width: Int, text: String)] = [
        (0, 0, 0, 0, 80, "scanning 0 B, 0 lines/s"),
        (1_000_000, 5847, 0, 2, 80, "scanning 976.6 KiB, 2.9 k lines/s"),
        (0, 0, 20 << 30, 0.5, 80, "scanning 0 B of 20.0 GiB (0%), 0 lines/s, ETA --"),
        (
            5 << 30, 30_000_000, 20 << 30, 10, 80,
            "scanning 5.0 GiB of 20.0 GiB (25%), 3.0 M lines/s, ETA 30s"
        ),
        (1 << 30, 1_000_000, 20 << 30, 10, 80, "scanning 1.0 GiB of 20.0 GiB (5%), 100.0 k lines/s, ETA 3m10s"),
        (1 << 20, 999, 20 << 30, 10, 80, "scanning 1.0 MiB of 20.0 GiB (0%), 100 lines/s, ETA 56h53m"),
        (20 << 30, 5, 20 << 30, 10, 80, "scanning 20.0 GiB of 20.0 GiB (100%), 1 lines/s, ETA 0s"),
        // A file that grew while it was read: past its size, no total.
        (21 << 30, 5, 20 << 30, 10, 80, "scanning 21.0 GiB, 1 lines/s"),
        // Never wider than the terminal less one column, so that `\r` redraws it.
        (5 << 30, 30_000_000, 20 << 30, 10, 29, "scanning 5.0 GiB of 20.0 GiB"),
    ]

    @Test(arguments: cases)
    func theLineSaysBytesOfTotalRateAndTimeLeft(
        c: (bytes: Int, lines: Int, total: Int, elapsed: Double, width: Int, text: String)
    ) {
        #expect(
            ProgressLine.render(bytes: c.bytes, lines: c.lines, total: c.total, elapsed: c.elapsed, width: c.width)
                == c.text)
    }

    @Test(arguments: [
        (0.0, "0s"), (0.2, "1s"), (59.0, "59s"), (60.0, "1m00s"), (3599.0, "59m59s"), (3600.0, "1h00m"),
        (7322.0, "2h02m"),
    ])
    func durations(seconds: Double, text: String) {
        #expect(ProgressLine.duration(seconds) == text)
    }

    @Test(arguments: [
        (812, "812 B"), (1024, "1.0 KiB"), (3_500, "3.4 KiB"), (1 << 40, "1.0 TiB"), (5 << 50, "5120.0 TiB"),
    ])
    func sizes(bytes: Int, text: String) {
        #expect(ProgressLine.size(bytes) == text)
    }
}
