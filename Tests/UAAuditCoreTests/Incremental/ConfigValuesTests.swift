import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

@Suite struct ConfigValuesTests {
    @Test(
        arguments: [
            (#"{"top": 10, "history_hours": 48, "lock_wait_seconds": 0.5, "insight": {"baseline_hours": 0}}"#, nil),
            (#"{"top": -1}"#, "top takes a whole number from 0 to 10000, not '-1'"),
            (#"{"top": 1.0}"#, nil),
            (#"{"history_hours": 0}"#, "history_hours takes a whole number from 1 to 8784, not '0'"),
            (#"{"min_requests": 0.5}"#, "min_requests takes a whole number from 0 to 2147483647, not '0.5'"),
            (#"{"lock_wait_seconds": 3601}"#, "lock_wait_seconds takes seconds from 0 to 3600, not '3601'"),
            (
                #"{"insight": {"baseline_hours": -1}}"#,
                "insight.baseline_hours takes a whole number from 0 to 8784, not '-1'"
            ),
            (#"{"top": "x"}"#, nil),
            (#"not json"#, nil),
        ] as [(String, String?)])
    func numbersAreCheckedAgainstTheFlagsRanges(json: String, problem: String?) {
        #expect(ConfigValues.firstProblem(in: Array(json.utf8)) == problem)
    }
}
