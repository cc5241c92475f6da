import UAAuditAudit

/// What `scan` and `explain` make of logs: the scan's result, and the report built from it
/// and stamped with what was read (``ReportIdentity/stampScan(_:configuration:read:host:)``).
/// The one place the three steps happen in this order, so that both commands' reports of the
/// same logs are the same bytes.
package struct ScanReport {
    package let result: AuditResult
    package let report: Report

    /// Scans `inputs` (paths, `-` for stdin) with `progress` counting as it goes (nil: none);
    /// `generatedAt` is asked once the scan has ended (the report's `generated_at`).
    package init(
        scanning inputs: [String], configuration: ScanConfiguration, progress: ProgressCounter?,
        generatedAt: () -> String
    ) {
        result = Scanner(configuration: configuration, progress: progress).scan(inputs)
        var report = ReportBuilder.build(result, configuration: configuration, generatedAt: generatedAt())
        ReportIdentity.stampScan(&report, configuration: configuration, read: result.sources)
        self.report = report
    }
}
