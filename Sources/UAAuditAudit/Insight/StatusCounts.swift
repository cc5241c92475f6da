/// Responses by status family, plus the two statuses a UA whitelist or a UA-bound session answers
/// with (401, 403): the cost of a class's requests.
public struct StatusCounts: Codable, Equatable, Sendable {
    /// Counters per class in a tally: 2xx, 3xx, 4xx, 5xx, other (1xx, 0xx, 6xx…), 401, 403.
    public static let slots = 7

    public var s2xx: Int64 = 0
    public var s3xx: Int64 = 0
    public var s4xx: Int64 = 0
    public var s5xx: Int64 = 0
    public var other: Int64 = 0
    public var s401: Int64 = 0
    public var s403: Int64 = 0

    enum CodingKeys: String, CodingKey {
        case other
        case s2xx = "2xx"
        case s3xx = "3xx"
        case s4xx = "4xx"
        case s5xx = "5xx"
        case s401 = "401"
        case s403 = "403"
    }

    package init(
        s2xx: Int64 = 0, s3xx: Int64 = 0, s4xx: Int64 = 0, s5xx: Int64 = 0, other: Int64 = 0, s401: Int64 = 0,
        s403: Int64 = 0
    ) {
        (self.s2xx, self.s3xx, self.s4xx, self.s5xx) = (s2xx, s3xx, s4xx, s5xx)
        (self.other, self.s401, self.s403) = (other, s401, s403)
    }

    /// From a tally's `slots` counters.
    package init(_ c: ArraySlice<Int64>) {
        let i = c.startIndex
        (s2xx, s3xx, s4xx, s5xx, other, s401, s403) = (c[i], c[i + 1], c[i + 2], c[i + 3], c[i + 4], c[i + 5], c[i + 6])
    }

    /// The slot offsets (0-based within a class's counters) a 3-digit status counts in: its
    /// family, and 5 or 6 for 401 or 403 (-1 when none).
    @inline(__always)
    static func slots(of status: UnsafeRawBufferPointer) -> (family: Int, exact: Int) {
        guard status.count == 3 else { return (4, -1) }
        let d = Int(status[0]) &- 0x30
        let family = d >= 2 && d <= 5 ? d - 2 : 4
        var exact = -1
        if d == 4, status[1] == 0x30 {
            if status[2] == 0x31 { exact = 5 } else if status[2] == 0x33 { exact = 6 }
        }
        return (family, exact)
    }

    /// Responses answered 401 or 403.
    public var rejected: Int64 { s401 + s403 }
    public var total: Int64 { s2xx + s3xx + s4xx + s5xx + other }

    package mutating func add(_ o: StatusCounts) {
        s2xx += o.s2xx
        s3xx += o.s3xx
        s4xx += o.s4xx
        s5xx += o.s5xx
        other += o.other
        s401 += o.s401
        s403 += o.s403
    }
}

/// How often a path was requested, and how many of those requests were answered 401 or 403.
package struct PathCount: Codable, Equatable, Sendable {
    package var count: Int64 = 0
    package var rejected: Int64 = 0

    package init(count: Int64 = 0, rejected: Int64 = 0) {
        self.count = count
        self.rejected = rejected
    }
}
