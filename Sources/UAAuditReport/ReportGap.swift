extension Report {
    /// Bytes of a log that could not be read: reported, never silently skipped.
    package struct Gap: Codable, Equatable, Sendable {
        package var log: String
        package var file: String
        package var fromOffset: Int64
        /// The end of the lost range, when known; nil means unknown.
        package var toOffset: Int64?
        package var reason: String
        package var detectedAt: String
        /// True when the range may hold lines that were counted before as well as lines that
        /// were not (a log cut in place and written again): they are not read, so nothing is
        /// counted twice. Absent when every byte of the range is lost.
        package var uncertain: Bool? = nil

        enum CodingKeys: String, CodingKey {
            case log, file, reason, uncertain
            case fromOffset = "from_offset"
            case toOffset = "to_offset"
            case detectedAt = "detected_at"
        }

        package init(
            log: String, file: String, fromOffset: Int64, toOffset: Int64? = nil, reason: String, detectedAt: String,
            uncertain: Bool? = nil
        ) {
            self.log = log
            self.file = file
            self.fromOffset = fromOffset
            self.toOffset = toOffset
            self.reason = reason
            self.detectedAt = detectedAt
            self.uncertain = uncertain
        }
    }
}
