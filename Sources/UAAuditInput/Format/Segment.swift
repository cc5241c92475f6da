/// One piece of a compiled log format: literal bytes, or a variable's value.
package enum Segment: Sendable, Equatable {
    case literal([UInt8])
    case variable(name: String, role: FieldRole)
}
