/// The app versions of the app UAs one worker has read (``UAAnatomy/appVersion(_:app:)``), so
/// that the UA cache can tag each app UA's entry with its version (``UACache/versionTag(_:)``)
/// and the hot path reads none. A tag is the version's index + 1 in the low 16 bits and the
/// cache's generation above: emptied when it holds ``maxVersions``, the cache starts a new
/// generation, and tags of the old one read as no version (counted as approximate), so no tag
/// ever names another version. The version of a UA depends on the UA alone.
final class VersionCache {
    static let maxVersions = 4_096
    private var names: [String] = []
    private var index: [String: UInt32] = [:]
    private var generation: UInt32 = 0
    private let app: String?

    init(app: String?) { self.app = app }

    /// The tag of a decoded app UA's version; 0 when it names none.
    func tag(ofDecoded ua: UnsafeRawBufferPointer) -> UInt32 {
        let text = String(decoding: ua.prefix(AppSighting.maxBytes), as: UTF8.self)
        guard let version = UAAnatomy.appVersion(text, app: app) else { return 0 }
        if let i = index[version] { return generation << 16 | (i + 1) }
        if names.count >= VersionCache.maxVersions {
            names.removeAll(keepingCapacity: true)
            index.removeAll(keepingCapacity: true)
            generation = (generation + 1) & 0xFF
        }
        let i = UInt32(names.count)
        names.append(version)
        index[version] = i
        return generation << 16 | (i + 1)
    }

    /// The version a tag names, nil for 0 or a tag of an earlier generation.
    func text(ofTag tag: UInt32) -> String? {
        let i = Int(tag & 0xFFFF) - 1
        guard i >= 0, tag >> 16 == generation, i < names.count else { return nil }
        return names[i]
    }
}
