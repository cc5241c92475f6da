import UAAuditInput

/// What the audit finds out beyond the counts: what the alert class costs, which clients are
/// split between the app's UAs and the alert class, and how the UAs change (typed settings
/// given by `scan`'s flags and `run`'s config).
package struct InsightSettings: Sendable, Equatable {
    /// The format variable that identifies a client (without `$`); nil turns split figures off.
    package var clientKey: String?
    /// The classes that are the app's own UAs: a client seen with one of them and with the alert
    /// class in the same hour is split.
    package var appClasses: [String]
    /// Shows client keys in full in reports, summaries and messages instead of hashed.
    package var showClientKeys: Bool
    /// Clients kept exactly per hour and per chunk of input; beyond that, a sample.
    package var maxClients: Int
    /// How many hours before an hour make its baseline for new UA families and share drops
    /// (0: no drift figures).
    package var baselineHours: Int
    /// Alerts when a family not in the baseline carries more than this share of an hour (nil: off).
    package var newFamilyShare: Threshold?
    /// Alerts when an app class's share of an hour falls by more than this fraction of its
    /// baseline share (0.5: from 58% to under 29%) (nil: off).
    package var shareDrop: Threshold?
    /// What client keys are hashed with (``ClientSalt``): the default, or the fleet's own.
    package var salt: ClientSalt

    static let defaultClientKey = "remote_addr"
    static let defaultAppClasses = ["urlsession", "webview"]

    package init(
        clientKey: String? = InsightSettings.defaultClientKey, appClasses: [String] = InsightSettings.defaultAppClasses,
        showClientKeys: Bool = false, maxClients: Int = ClientSet.maxEntries,
        baselineHours: Int = Settings.baselineHours.defaultInt,
        newFamilyShare: Threshold? = nil, shareDrop: Threshold? = nil, salt: ClientSalt = .standard
    ) {
        self.salt = salt
        self.clientKey = clientKey
        self.appClasses = appClasses
        self.showClientKeys = showClientKeys
        self.maxClients = maxClients
        self.baselineHours = baselineHours
        self.newFamilyShare = newFamilyShare
        self.shareDrop = shareDrop
    }

    /// True when any drift alert is configured.
    package var alertsOnDrift: Bool { newFamilyShare != nil || shareDrop != nil }
}
