import Testing

@testable import UAAuditInput

/// A numeric setting's range, wholeness and default, as flags and config keys state them.
@Suite struct SettingTests {
    @Test func defaultsAreWrittenAsTheHelpShowsThem() {
        #expect(Settings.minRequests.defaultText == "100")
        #expect(Settings.maxLineBytes.defaultText == "1048576")
        #expect(Settings.lockWaitSeconds.defaultValue == 30)
        #expect(Settings.baselineHours.defaultInt == 24)
    }

    @Test func aValueIsTakenInItsRangeAndWholeWhereItMustBe() {
        #expect(Settings.top.accepts(10_000) && !Settings.top.accepts(10_001) && !Settings.top.accepts(1.5))
        #expect(Settings.lockWaitSeconds.accepts(0.5))
        #expect(Settings.historyHours.rule("0") == "takes a whole number from 1 to 8784, not '0'")
        #expect(Settings.lockWaitSeconds.rule("-1") == "takes seconds from 0 to 3600, not '-1'")
    }

    /// Every setting a config may hold has its key; those only a flag sets have none.
    @Test func configurableSettingsHaveKeys() {
        #expect(Settings.configurable.allSatisfy { $0.key != nil })
        #expect(Settings.commandLineOnly.allSatisfy { $0.key == nil })
        let flags = (Settings.configurable + Settings.commandLineOnly).map(\.flag)
        #expect(Set(flags).count == flags.count)
    }
}
