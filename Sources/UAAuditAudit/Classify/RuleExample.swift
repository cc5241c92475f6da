import UAAuditInput

/// A UA and the class a rules file says its rules give it (the file's `examples`).
package struct RuleExample: Sendable, Equatable {
    package let ua: [UInt8]
    package let className: String

    init(ua: [UInt8], className: String) {
        self.ua = ua
        self.className = className
    }

    /// The UA as text for messages.
    var text: String { ReportText.render(ua) }
}

/// An example the rules classify otherwise than it says: which class it got, and from which rule.
package struct ExampleFailure: Sendable, Equatable, CustomStringConvertible {
    let example: RuleExample
    let got: Classifier.Explanation

    package var description: String {
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
