/// An hour's release sample as a report carries it for `merge` (``ReleaseClients``): each
/// client by its id under the report's salt (as ``Report/ClientSampleEntry``), with its app
/// versions and alert-class families as indices into the sorted `versions` and `families`.
/// A class, so that an hour entry holds one reference for it (a report of 300,000 hours).
public final class ReleaseSampleEntry: Codable, Equatable, Sendable {
    public let level: Int
    public let versions: [String]
    public let families: [String]
    /// Base64 of the clients in ascending id order: id (8 bytes, little-endian), its hash's
    /// leading zero bits (1), kind bits (1), version count (1), family count (1), then a
    /// 2-byte little-endian index per version and per family.
    public let records: String
    public let approximate: Bool?

    public init(level: Int, versions: [String], families: [String], records: String, approximate: Bool?) {
        self.level = level
        self.versions = versions
        self.families = families
        self.records = records
        self.approximate = approximate
    }

    public static func == (a: ReleaseSampleEntry, b: ReleaseSampleEntry) -> Bool {
        a.level == b.level && a.versions == b.versions && a.families == b.families && a.records == b.records
            && a.approximate == b.approximate
    }
}
