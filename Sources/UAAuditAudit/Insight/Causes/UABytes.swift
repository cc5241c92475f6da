/// The byte scanning ``UAAnatomy`` reads a UA with: finding literals, products, versions and
/// WebKit's shape in at most ``UAAnatomy/maxBytes`` bytes.
///
/// Plain loops over bytes rather than regexes: every function is linear (or linear times a
/// short literal) in the bytes given, and indexes only after checking bounds, so any input,
/// UTF-8 or not, costs little and cannot trap.
enum UABytes {
    static let gecko = " (KHTML, like Gecko)"
    /// The bytes a product follows: a space, `(`, `[`, `;` or `,`.
    static let productSeparators: [UInt8] = Array(" ([;,".utf8)
    /// The words apps write before an iOS version, and the lowest major each can have ("iOS"
    /// and "iPadOS" were never below 4 and 13).
    static let osWords: [(word: String, lowest: Int)] = [("iOS", 4), ("iPadOS", 13), ("iPhone OS", 1)]
    static let cpuOSWords = ["iPhone OS ", "iPad OS ", "iPadOS ", "iOS ", "OS "]
    static let deviceWords = ["iPhone", "iPad", "iPod", "iOS"]
    static let iosWebKitStarts = ["Mozilla/5.0 (iPhone", "Mozilla/5.0 (iPad", "Mozilla/5.0 (iPod"]

    static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    static func isAlphanumeric(_ byte: UInt8) -> Bool {
        isDigit(byte) || ((byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A)
    }

    /// The first index at or after `from` where `literal` starts in `bytes`.
    static func find(_ literal: String, in bytes: [UInt8], from: Int) -> Int? {
        let needle = Array(literal.utf8)
        guard let first = needle.first, from >= 0, bytes.count >= needle.count else { return nil }
        var at = from
        while at <= bytes.count - needle.count {
            if bytes[at] == first, matches(needle, bytes, at) { return at }
            at += 1
        }
        return nil
    }

    static func has(_ literal: String, in bytes: [UInt8], at: Int) -> Bool {
        // The first byte alone rules out almost every position, without making an array.
        guard at >= 0, at < bytes.count, let first = literal.utf8.first, bytes[at] == first else { return false }
        return matches(Array(literal.utf8), bytes, at)
    }

    private static func matches(_ needle: [UInt8], _ bytes: [UInt8], _ at: Int) -> Bool {
        guard at >= 0, at + needle.count <= bytes.count else { return false }
        for index in needle.indices where bytes[at + index] != needle[index] { return false }
        return true
    }

    /// A product starts at `at`: the UA's start, or after a space, `(`, `[`, `;` or `,`.
    static func startsProduct(_ bytes: [UInt8], _ at: Int) -> Bool {
        guard at > 0 else { return at == 0 }
        return at <= bytes.count && productSeparators.contains(bytes[at - 1])
    }

    /// Where the version starts after the first product `name/` in `bytes`.
    static func productVersionStart(_ name: String, in bytes: [UInt8]) -> Int? {
        let product = name + "/"
        var from = 0
        while let at = find(product, in: bytes, from: from) {
            if startsProduct(bytes, at) { return at + product.utf8.count }
            from = at + 1
        }
        return nil
    }

    /// The version at `at`: 1 to 32 bytes of `[0-9A-Za-z._-]`, a digit first.
    static func version(_ bytes: [UInt8], at: Int) -> String? {
        guard at >= 0, at < bytes.count, isDigit(bytes[at]) else { return nil }
        var end = at
        while end < bytes.count, isAlphanumeric(bytes[end]) || "._-".utf8.contains(bytes[end]) { end += 1 }
        guard end - at <= 32 else { return nil }
        return String(decoding: bytes[at..<end], as: UTF8.self)
    }

    // MARK: iOS versions

    /// The iOS version `bytes` state, and whether it came only from Darwin on a UA that names no
    /// iOS device. WebKit's `CPU iPhone OS 17_4` / `CPU OS 17_4` first, then the words apps use
    /// (`iOS 17.4`, `iOS/17.4`, `iOS17.4`, `iPadOS/17.5.1`, `iPhone OS 16.4`), then `Darwin/23.4.0`.
    static func iosVersion(_ bytes: [UInt8]) -> (ios: String, fromDarwinOnly: Bool)? {
        var from = 0
        while let cpu = find("CPU ", in: bytes, from: from) {
            for os in cpuOSWords where has(os, in: bytes, at: cpu + 4) {
                if let ios = majorMinor(bytes, at: cpu + 4 + os.utf8.count) { return (ios, false) }
            }
            from = cpu + 1
        }
        // The last word form: apps write their own name and version first and the OS after it
        // ('Laughable iOS/3.1 (…; iOS 16.3.1)').
        var word: String?
        for at in bytes.indices where startsWord(bytes, at) {
            for (name, lowest) in osWords where has(name, in: bytes, at: at) {
                var next = at + name.utf8.count
                if next < bytes.count, bytes[next] == UInt8(ascii: " ") || bytes[next] == UInt8(ascii: "/") {
                    next += 1
                }
                if let ios = majorMinor(bytes, at: next, lowest: lowest) { word = ios }
            }
        }
        if let word { return (word, false) }
        from = 0
        while let at = find("Darwin/", in: bytes, from: from) {
            from = at + 1
            guard startsProduct(bytes, at) else { continue }
            var end = at + 7
            while end < bytes.count, isDigit(bytes[end]) || bytes[end] == UInt8(ascii: ".") { end += 1 }
            guard let ios = DarwinTable.ios(darwin: String(decoding: bytes[(at + 7)..<end], as: UTF8.self)) else {
                return nil
            }
            return (ios, !namesDevice(bytes))
        }
        return nil
    }

    /// A word starts at `at`: the UA's start or after a byte that is not a letter or digit
    /// (`iOS 17.4`, `(iOS/14.2`, `-iOS`, not `myTuneriOS`).
    static func startsWord(_ bytes: [UInt8], _ at: Int) -> Bool {
        at == 0 || (at > 0 && at < bytes.count && !isAlphanumeric(bytes[at - 1]))
    }

    /// The UA names an iPhone, iPad, iPod or iOS as a word (`iPhone15,2`, `(iPad;`, `iOS/16.6`).
    static func namesDevice(_ bytes: [UInt8]) -> Bool {
        bytes.indices.contains { at in
            startsWord(bytes, at) && deviceWords.contains { has($0, in: bytes, at: at) }
        }
    }

    /// `17_4_1`, `17.4`, `17` at `at` as "17.4", "17.4", "17.0": one to three digits each, the
    /// minor after `.` or `_`; nil when no digit is there, a part is longer, or the major is
    /// below `lowest`.
    static func majorMinor(_ bytes: [UInt8], at: Int, lowest: Int = 1) -> String? {
        func digits(_ start: Int) -> (value: Int, end: Int)? {
            var end = start
            while end < bytes.count, isDigit(bytes[end]) { end += 1 }
            guard end > start, end - start <= 3 else { return nil }
            return (bytes[start..<end].reduce(0) { $0 * 10 + Int($1 - 0x30) }, end)
        }
        guard let major = digits(at), major.value >= lowest else { return nil }
        if major.end + 1 < bytes.count, bytes[major.end] == UInt8(ascii: ".") || bytes[major.end] == UInt8(ascii: "_"),
            let minor = digits(major.end + 1)
        {
            return "\(major.value).\(minor.value)"
        }
        if major.end < bytes.count, isDigit(bytes[major.end]) { return nil }
        return "\(major.value).0"
    }

    // MARK: Shapes

    /// The CFNetwork default of one of Safari's own processes (`Safari/…`, and
    /// `SafariViewService/…`, SFSafariViewController's; both in device-detector's fixtures).
    static func isSafariProcess(_ bytes: [UInt8]) -> Bool {
        guard let slash = bytes.firstIndex(of: UInt8(ascii: "/")),
            ["Safari", "SafariViewService"].contains(where: { bytes[..<slash].elementsEqual($0.utf8) })
        else { return false }
        // `<build> CFNetwork/<v> Darwin/<v>` after the name's '/', and nothing after it.
        let fields = bytes[(slash + 1)...].split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
        return fields.count == 3 && fields[1].starts(with: "CFNetwork/".utf8) && fields[2].starts(with: "Darwin/".utf8)
    }

    /// Mobile Safari's or a default WKWebView's UA, or nil: `Mozilla/5.0 (iPhone|iPad|iPod…)
    /// … AppleWebKit/… (KHTML, like Gecko)` and after it only WebKit's own products. With
    /// `Version/` and `Safari/` it is Safari; with `Mobile/` and no `Safari/`, a WKWebView that
    /// added nothing. Any other product after the engine (an app's token, CriOS, FBAN…) is not
    /// one of these.
    static func webKitStack(_ bytes: [UInt8]) -> UAAnatomy.Stack? {
        guard iosWebKitStarts.contains(where: { has($0, in: bytes, at: 0) }),
            let engine = find(") AppleWebKit/", in: bytes, from: 0),
            let geckoAt = find(gecko, in: bytes, from: engine)
        else { return nil }
        var seen: Set<String> = []
        for token in bytes[(geckoAt + gecko.utf8.count)...].split(separator: UInt8(ascii: " ")) {
            guard let slash = token.firstIndex(of: UInt8(ascii: "/")) else { return nil }
            let product = String(decoding: token[..<slash], as: UTF8.self)
            let version = token[(slash + 1)...]
            guard ["Version", "Mobile", "Safari"].contains(product), seen.insert(product).inserted, !version.isEmpty,
                version.allSatisfy({ isAlphanumeric($0) || $0 == UInt8(ascii: ".") })
            else { return nil }
        }
        if seen.contains("Safari") { return seen.contains("Version") ? .safari : nil }
        return seen.contains("Mobile") ? .wkwebviewWithoutToken : nil
    }
}
