/// A key given twice in one JSON object (`{"threshold": "1%", "threshold": "5%"}`), found as
/// the file is parsed (``JSONValue/parse(_:firstDuplicate:)``): Foundation's decoders keep one
/// of them without a word, so the other setting would be lost in silence.
package enum DuplicateKeys {
    /// What to say of a duplicate at `place`.
    package static func message(_ place: String) -> String {
        "key '\(place.escapingControls)' is given twice; give it once (JSON keeps only one of the values, in silence)"
    }
}
