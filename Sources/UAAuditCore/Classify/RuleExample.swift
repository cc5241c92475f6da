/// A UA and the class a rules file says its rules give it (the file's `examples`).
public struct RuleExample: Sendable, Equatable {
    public let ua: [UInt8]
    public let className: String

    public init(ua: [UInt8], className: String) {
        self.ua = ua
        self.className = className
    }

    /// The UA as text for messages.
    public var text: String { ReportText.render(ua) }
}

/// An example the rules classify otherwise than it says: which class it got, and from which rule.
public struct ExampleFailure: Sendable, Equatable, CustomStringConvertible {
    public let example: RuleExample
    public let got: Classifier.Explanation

    public var description: String {
        let taken: String
        if let failure = got.failure {
            taken = "its match failed (\(failure))"
        } else if let pattern = got.pattern {
            taken = "rule '\(got.className)' took it (pattern \(pattern))"
        } else if got.className == "other" {
            taken = "no rule matched it (other)"
        } else {
            taken = "it is \(got.className)"
        }
        return "example '\(example.text)' should be \(example.className), but \(taken)"
    }
}
