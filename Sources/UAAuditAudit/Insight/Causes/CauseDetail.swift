import UAAuditInput

/// What an hour's alert-class UAs of one family say about the code that sent them: the stack
/// (``UAAnatomy``), the bundle or SDK, and the iOS versions with their requests.
///
/// Worked out from the hour's alert-class UAs as logged (the family's own text has its digits
/// collapsed, and iOS versions are digits), once per hour's UA when the hour is made, and kept
/// per family in `run`'s state, so that an hour read over several runs adds its versions up.
package struct CauseDetail: Codable, Equatable, Sendable {
    package var stack: UAAnatomy.Stack
    package var bundle: String?
    package var bundleIsExtension: Bool?
    package var sdk: String?
    /// Requests per iOS version (`17.4`), at most ``maxVersions``.
    var ios: [String: Int64] = [:]
    /// True when some version came from `Darwin/x.y` alone, in a UA naming no device: Darwin
    /// is iOS's and macOS's alike.
    package var iosFromDarwinOnly: Bool?
    /// Requests of the family's UAs that were read (the most requested UA decides the stack).
    var requests: Int64 = 0

    static let maxVersions = 16

    enum CodingKeys: String, CodingKey {
        case stack, bundle, sdk, ios, requests
        case bundleIsExtension = "bundle_is_extension"
        case iosFromDarwinOnly = "ios_from_darwin_only"
    }

    package init(_ anatomy: UAAnatomy, requests: Int64) {
        stack = anatomy.stack
        bundle = anatomy.bundle
        bundleIsExtension = anatomy.bundleIsExtension ? true : nil
        sdk = anatomy.sdk
        self.requests = requests
        if let v = anatomy.ios {
            ios[v] = requests
            if anatomy.iosFromDarwinOnly { iosFromDarwinOnly = true }
        }
    }

    /// The details of an hour's alert-class UAs (decoded, with their requests), per family
    /// (report text). UAs are read most requested first, so the stack, bundle and SDK are those of
    /// the family's most requested UA (ties: the lower bytes).
    static func details(of uas: [[UInt8]: Int64], app: String?) -> [String: CauseDetail] {
        let sorted = uas.sorted {
            $0.value != $1.value ? $0.value > $1.value : $0.key.lexicographicallyPrecedes($1.key)
        }
        var out: [String: CauseDetail] = [:]
        for (ua, n) in sorted {
            let family = ReportText.render(UAFamily.of(ua))
            let anatomy = UAAnatomy.read(String(decoding: ua.prefix(AppSighting.maxBytes), as: UTF8.self), app: app)
            if out[family] == nil {
                out[family] = CauseDetail(anatomy, requests: n)
            } else {
                out[family]?.add(CauseDetail(anatomy, requests: n))
            }
        }
        return out
    }

    /// Adds another part of the same family's requests (a later UA of the hour, a later run):
    /// the stack stays the first part's.
    mutating func add(_ other: CauseDetail) {
        requests += other.requests
        for (v, n) in other.ios { ios[v, default: 0] += n }
        if other.iosFromDarwinOnly == true { iosFromDarwinOnly = true }
        if bundle == nil { bundle = other.bundle }
        if sdk == nil { sdk = other.sdk }
        if ios.count > CauseDetail.maxVersions {
            let kept = ios.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
                .prefix(CauseDetail.maxVersions)
            ios = Dictionary(uniqueKeysWithValues: kept.map { ($0.key, $0.value) })
        }
    }

    /// The iOS versions, oldest first (`9.3` before `17.4`).
    package var iosVersions: [String] { ios.keys.sorted(by: CauseDetail.versionPrecedes) }

    /// Whether version `a` comes before `b`, comparing their dot-separated numbers as numbers
    /// (then as text, for parts that are not numbers).
    package static func versionPrecedes(_ a: String, _ b: String) -> Bool {
        let (x, y) = (a.split(separator: "."), b.split(separator: "."))
        for (p, q) in zip(x, y) where p != q {
            if let m = Int(p), let n = Int(q) { return m < n }
            return p < q
        }
        return x.count != y.count ? x.count < y.count : a < b
    }
}
