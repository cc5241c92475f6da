/// A problem with what the user asked for; it always exits with ``ExitCode/usage``.
struct CLIError: Error, CustomStringConvertible {
    let message: String
    init(_ message: String) { self.message = message }
    var description: String { message }
}
