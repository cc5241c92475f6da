import FoundationEssentials

/// The keys a JSON config (run's config, a rules file) may have, at every level: anything else is an error that names the
/// key, where it was, and the closest key that is allowed there (a typo must never switch a
/// setting off in silence).
///
/// A struct rather than an indirect enum: the tables live in static storage, and an enum's
/// boxes there are tagged pointers that LeakSanitizer (the fuzz build) takes for leaks.
package struct ConfigKeys: Sendable {
    package enum Shape: Sendable { case object, list, value }
    private let shape: Shape
    private let fields: [String: ConfigKeys]
    private let elements: [ConfigKeys]

    /// An object with these keys, each with what it holds.
    package static func object(_ fields: [String: ConfigKeys]) -> ConfigKeys {
        ConfigKeys(shape: .object, fields: fields, elements: [])
    }
    /// A list whose every item is described by the element.
    package static func list(_ element: ConfigKeys) -> ConfigKeys {
        ConfigKeys(shape: .list, fields: [:], elements: [element])
    }
    /// A value whose inside is not checked here (strings, numbers, lists of strings).
    package static let value = ConfigKeys(shape: .value, fields: [:], elements: [])

    /// Every key that holds a value, sorted at each level, with its place: `threshold`,
    /// `format.name`, `alerts[].url`. The man page lists them; the options' keys are among them.
    package var paths: [String] {
        switch shape {
        case .value: return [""]
        case .list: return elements[0].paths.map { "[]" + ($0.isEmpty ? "" : "." + $0) }
        case .object:
            return fields.keys.sorted().flatMap { key in
                fields[key]!.paths.map { $0.isEmpty ? key : $0.hasPrefix("[]") ? key + $0 : key + "." + $0 }
            }
        }
    }

    package static func keys(_ names: [String]) -> [String: ConfigKeys] {
        Dictionary(uniqueKeysWithValues: names.map { ($0, ConfigKeys.value) })
    }

    /// An unknown key: its place (`insight.treshold`, `alerts[0].urll`) and the closest allowed
    /// key at that place.
    package struct Unknown: Equatable, Sendable, CustomStringConvertible {
        var path: String
        /// The closest allowed key, when one is close enough to be what was meant.
        var suggestion: String?
        var allowed: [String]

        package var description: String {
            let guess = suggestion.map { "; did you mean '\($0.escapingControls)'?" } ?? ""
            return "unknown key '\(path.escapingControls)'\(guess) (keys there: \(allowed.joined(separator: ", ")))"
        }
    }

    /// The first unknown key of a parsed document in document order of a depth-first walk (keys
    /// sorted at each level, so the answer is stable); nil when every key is known.
    package func firstUnknown(in json: JSONValue) -> Unknown? { firstUnknown(json, at: "") }

    private func firstUnknown(_ json: JSONValue, at place: String) -> Unknown? {
        switch shape {
        case .value:
            return nil
        case .list:
            let element = elements[0]
            guard let items = json.array else { return nil }
            for (i, item) in items.enumerated() {
                if let found = element.firstUnknown(item, at: "\(place)[\(i)]") { return found }
            }
            return nil
        case .object:
            let known = fields
            guard let object = json.object else { return nil }
            let allowed = known.keys.sorted()
            for key in object.keys.sorted() {
                let path = place.isEmpty ? key : "\(place).\(key)"
                guard let inner = known[key] else {
                    let closest = Suggestion.closest(to: key, among: allowed)
                    return Unknown(
                        path: path, suggestion: closest.map { place.isEmpty ? $0 : "\(place).\($0)" },
                        allowed: allowed)
                }
                if let found = inner.firstUnknown(object[key]!, at: path) { return found }
            }
            return nil
        }
    }
}
