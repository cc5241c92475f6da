/// Finds a key given twice in one JSON object (`{"threshold": "1%", "threshold": "5%"}`):
/// Foundation's decoders keep one of them without a word, so the other setting would be lost
/// in silence. A small scan of the bytes, independent of any JSON library.
package enum DuplicateKeys {
    /// The place of the first key repeated in its object (`threshold`, `insight.client_key`,
    /// `rules[1].class`), in document order; nil when there is none or the bytes are no JSON
    /// (the decoder then says what is wrong).
    package static func first(in bytes: [UInt8]) -> String? {
        /// One open container: an object's keys so far and the key last read, or a list's index.
        struct Level {
            var isObject: Bool
            var keys: Set<[UInt8]> = []
            var key: String = ""
            var index = 0
            var expectsKey = false
        }
        var stack: [Level] = []
        func place() -> String {
            var text = ""
            for level in stack {
                if level.isObject {
                    text += text.isEmpty ? level.key : ".\(level.key)"
                } else {
                    text += "[\(level.index)]"
                }
            }
            return text
        }
        var i = 0
        while i < bytes.count {
            let byte = bytes[i]
            switch byte {
            case UInt8(ascii: "{"):
                stack.append(Level(isObject: true, expectsKey: true))
            case UInt8(ascii: "["):
                stack.append(Level(isObject: false))
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                guard !stack.isEmpty else { return nil }
                stack.removeLast()
            case UInt8(ascii: ","):
                guard var top = stack.popLast() else { return nil }
                if top.isObject { top.expectsKey = true } else { top.index += 1 }
                stack.append(top)
            case UInt8(ascii: "\""):
                // A string: its raw bytes up to the closing quote (escapes kept as written).
                var j = i + 1
                while j < bytes.count, bytes[j] != UInt8(ascii: "\"") { j += bytes[j] == UInt8(ascii: "\\") ? 2 : 1 }
                guard j < bytes.count else { return nil }
                let raw = Array(bytes[(i + 1)..<j])
                if var top = stack.last, top.isObject, top.expectsKey {
                    top.expectsKey = false
                    top.key = String(decoding: raw, as: UTF8.self)
                    let (inserted, _) = top.keys.insert(raw)
                    stack[stack.count - 1] = top
                    if !inserted { return place() }
                }
                i = j
            default:
                break
            }
            i += 1
        }
        return nil
    }

    /// What to say of a duplicate at `place`.
    package static func message(_ place: String) -> String {
        "key '\(place)' is given twice; give it once (JSON keeps only one of the values, in silence)"
    }
}
