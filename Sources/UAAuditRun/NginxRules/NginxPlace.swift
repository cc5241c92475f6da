import UAAuditInput

/// Where something was written in nginx's configuration: `FILE:LINE`.
package struct NginxPlace: Hashable, Sendable, Comparable, CustomStringConvertible {
    package var file: String
    package var line: Int

    init(file: String, line: Int) {
        self.file = file
        self.line = line
    }

    init(_ directive: NginxConfigTree.Located) { self.init(file: directive.file, line: directive.line) }

    package var description: String { "\(file):\(line)" }

    package static func < (a: NginxPlace, b: NginxPlace) -> Bool { (a.file, a.line) < (b.file, b.line) }
}
