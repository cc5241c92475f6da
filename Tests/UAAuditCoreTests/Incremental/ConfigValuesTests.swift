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
            (#"{"top": 1.0}"#, nil), (#"{"top": 1e1}"#, nil),
            // Whole as written, not as a Double reads it (3.0).
            (
                #"{"top": 2.9999999999999999999}"#,
                "top takes a whole number from 0 to 10000, not '2.9999999999999999999'"
            ),
            (#"{"grace_seconds": 1e-400}"#, "grace_seconds takes a whole number from 0 to 86400, not '1e-400'"),
            (#"{"history_hours": 0}"#, "history_hours takes a whole number from 1 to 8784, not '0'"),
            (#"{"min_requests": 0.5}"#, "min_requests takes a whole number from 0 to 2147483647, not '0.5'"),
            (#"{"lock_wait_seconds": 3601}"#, "lock_wait_seconds takes seconds from 0 to 3600, not '3601'"),
            (
                #"{"insight": {"baseline_hours": -1}}"#,
                "insight.baseline_hours takes a whole number from 0 to 8784, not '-1'"
            ),
            (#"{"top": "x"}"#, nil),
            (#"{"threshold": 0.00001, "insight": {"alert_share_drop": 5e-1, "alert_new_family": "5%"}}"#, nil),
            (
                #"{"threshold": 0.05000000000000000000000000000000000000001}"#,
                "threshold takes a share from 0 to 1 of at most 15 significant digits and 16 decimals, such as "
                    + "0.001, or a percentage as a string such as \"0.1%\", not '0.050000000000000000…'"
            ),
            (
                #"{"insight": {"alert_new_family": 1e-300}}"#,
                "insight.alert_new_family takes a share from 0 to 1 of at most 15 significant digits and 16 "
                    + "decimals, such as 0.001, or a percentage as a string such as \"0.1%\", not '1e-300'"
            ),
            (
                #"{"threshold": -0}"#,
                "threshold takes a share from 0 to 1 of at most 15 significant digits and 16 decimals, such as "
                    + "0.001, or a percentage as a string such as \"0.1%\", not '-0'"
            ),
            (#"not json"#, nil),
        ] as [(String, String?)])
    func numbersAreCheckedAgainstTheFlagsRanges(json: String, problem: String?) {
        #expect((try? JSONValue.parse(Array(json.utf8))).flatMap { ConfigValues.firstProblem(in: $0) } == problem)
    }
}
