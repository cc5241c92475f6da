/// Words of commands uaaudit prints for the operator to paste into a shell.
package enum ShellWord {
    /// A word as a POSIX shell reads it back: bare when it holds only safe characters, else in
    /// single quotes (a `'` inside written `'\''`).
    package static func quoted(_ word: String) -> String {
        let safe = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./:=+,@%")
        if !word.isEmpty, word.allSatisfy({ safe.contains($0) }) { return word }
        return "'" + word.replacing("'", with: "'\\''") + "'"
    }
}
