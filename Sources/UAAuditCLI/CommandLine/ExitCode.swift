/// The exit statuses of `uaaudit`, listed in every `--help`.
public enum ExitCode: Int32, Sendable {
    /// Done.
    case success = 0
    /// Done, and an hour is over the threshold (only with `--fail-on-alert`).
    case alert = 1
    /// A usage or configuration error: nothing was audited.
    case usage = 2
    /// An input could not be read; the others were still audited and reported.
    case input = 3
    /// An alert could not be delivered to every channel (the report was written first).
    case delivery = 4
    /// Another `uaaudit run` holds the state lock; nothing was touched.
    case locked = 5

    static let helpText = """
        Exit status:
          0  done
          1  done, and an hour is over the threshold (only with --fail-on-alert)
          2  usage or configuration error (nothing was audited)
          3  an input could not be read (the others were still audited and reported)
          4  an alert could not be delivered (the report was written first)
          5  another uaaudit run holds the lock (nothing was touched)
        """
}
