/// How nginx escaped variable values when it wrote the log (`log_format … escape=`).
public enum EscapeMode: String, Sendable, Codable, CaseIterable {
    /// `"`, `\`, bytes below 0x20, 0x7F and bytes of 0x80 and above as `\xHH`; unset is `-`.
    case `default`
    /// JSON string escapes (`\"`, `\\`, `\n`, `\u00XX`); bytes of 0x80 and above raw; unset is empty.
    case json
    /// Nothing escaped: values are written as they are.
    case none
}
