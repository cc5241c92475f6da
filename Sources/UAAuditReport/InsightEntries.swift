import UAAuditAudit

extension Report {
    /// An alert-class request path: how often, and how many of those got 401 or 403.
    public struct PathEntry: Codable, Equatable, Sendable {
        public var path: String
        public var count: Int64
        public var rejected: Int64

        public init(path: String, count: Int64, rejected: Int64) {
            (self.path, self.count, self.rejected) = (path, count, rejected)
        }
    }

    /// Split identity: clients seen in the hour with an app class and with the alert class.
    public struct ClientsEntry: Codable, Equatable, Sendable {
        /// The format variable that identifies a client (`$remote_addr`).
        public var key: String
        public var appClasses: [String]
        /// Clients with at least one app-class request.
        public var app: Int64
        /// Clients with at least one alert-class request.
        public var alert: Int64
        /// Clients with both: the same client sent the app's UA and an inconsistent one.
        public var split: Int64
        /// `split / app` (0 without app clients).
        public var splitShare: Double
        /// False when the hour had more clients than are kept exactly: the counts are then
        /// estimates from a uniform hash sample at `sample_rate`, each capped at what the
        /// hour's requests allow (`app` at its app-class requests, `alert` at its alert-class
        /// requests, `split` at the smaller of the two).
        public var exact: Bool
        public var sampleRate: Double
        /// One standard error of `split` (0 when exact).
        public var splitError: Double
        /// A few split clients' keys: hashed (`#` and 12 hex digits of SHA-256) unless shown in full.
        public var examples: [String]
        /// The clients `merge` counts across hosts with (at most 4,096, see ``ClientSampleEntry``);
        /// absent in reports written before uaaudit kept it, and for a closed `run` hour of a
        /// state written before then.
        public var sample: ClientSampleEntry? = nil

        enum CodingKeys: String, CodingKey {
            case key, app, alert, split, exact, examples, sample
            case appClasses = "app_classes"
            case splitShare = "split_share"
            case sampleRate = "sample_rate"
            case splitError = "split_error"
        }
    }

    /// How the hour's UAs differ from its baseline (the hours before it).
    public struct DriftEntry: Codable, Equatable, Sendable {
        /// How many hours of the baseline window had data (0: nothing to compare with).
        public var baselineHours: Int
        /// Families not seen in the baseline, most requests first (at most 10).
        public var newFamilies: [FamilyEntry]
        /// Requests of all new families (including those not listed).
        public var newRequests: Int64
        /// True when the hour's or the baseline's family tables overflowed, so "new" may be wrong.
        public var approximate: Bool
        /// Each app class's share of the hour against its share of the baseline.
        public var appShares: [ShareChange]
        /// True when a configured drift alert fired for this hour.
        public var alert: Bool
        /// Why it fired, one sentence each.
        public var reasons: [String]
        /// The hour's UA families and their requests per class (at most 500, most requests
        /// first), so that `merge` works drift out again from the merged hours; absent in
        /// reports written before uaaudit kept them.
        public var families: [FamilyCounts]? = nil
        /// True when the hour had more families than it keeps: `families` lacks some.
        public var familiesApproximate: Bool? = nil
        /// True when the hour's families were dropped (its detail lists were): drift cannot
        /// tell what is new in it, nor against it.
        public var familiesDropped: Bool? = nil

        enum CodingKeys: String, CodingKey {
            case approximate, alert, reasons
            case baselineHours = "baseline_hours"
            case newFamilies = "new_families"
            case newRequests = "new_requests"
            case appShares = "app_shares"
            case families
            case familiesApproximate = "families_approximate"
            case familiesDropped = "families_dropped"
        }
    }

    public struct FamilyEntry: Codable, Equatable, Sendable {
        public var family: String
        /// The class with most of the family's requests.
        public var `class`: String
        public var count: Int64
        /// The family's share of the hour's requests.
        public var share: Double

        public init(family: String, class name: String, count: Int64, share: Double) {
            (self.family, self.class, self.count, self.share) = (family, name, count, share)
        }
    }

    public struct ShareChange: Codable, Equatable, Sendable {
        public var `class`: String
        public var share: Double
        /// The class's share of all the baseline's requests (nil without baseline requests).
        public var baseline: Double?

        public init(class name: String, share: Double, baseline: Double?) {
            (self.class, self.share, self.baseline) = (name, share, baseline)
        }
    }

    /// A UA family's requests per class, in an hour.
    public struct FamilyCounts: Codable, Equatable, Sendable {
        public var family: String
        public var classes: [String: Int64]

        public init(family: String, classes: [String: Int64]) {
            (self.family, self.classes) = (family, classes)
        }
    }

    /// A hash-threshold sample of an hour's clients, the same rule on every host: the clients
    /// whose salted hash (``ClientSalt``) starts with `level` zero bits, at most 4,096 (the
    /// finest level that keeps that many). Each client is one 9-byte record, sorted by id, in
    /// base64: its id (8 bytes, little-endian; a one-way hash under the salt, the same for one
    /// client on every host with that salt), then one byte: its hash's leading zero bits
    /// (at most 63) times 4, plus 1 when it sent an app class and 2 when it sent the alert class.
    public struct ClientSampleEntry: Codable, Equatable, Sendable {
        public var level: Int
        public var clients: String

        public init(level: Int, clients: String) {
            (self.level, self.clients) = (level, clients)
        }
    }

    /// The drift settings a report's drift figures were made with, so that `merge` can work
    /// them out again from the merged hours.
    public struct DriftSettingsEntry: Codable, Equatable, Sendable {
        public var baselineHours: Int
        public var newFamilyShare: Threshold?
        public var shareDrop: Threshold?
        /// The app classes whose shares drift compares (those the rules have).
        public var appClasses: [String]

        enum CodingKeys: String, CodingKey {
            case baselineHours = "baseline_hours"
            case newFamilyShare = "new_family_share"
            case shareDrop = "share_drop"
            case appClasses = "app_classes"
        }

        public init(baselineHours: Int, newFamilyShare: Threshold?, shareDrop: Threshold?, appClasses: [String]) {
            self.baselineHours = baselineHours
            self.newFamilyShare = newFamilyShare
            self.shareDrop = shareDrop
            self.appClasses = appClasses
        }
    }
}

extension Report {
    /// Why an hour's inconsistent family was sent: which stack, what to change, since which app
    /// release and on which iOS versions (``CauseReport``).
    public struct CauseEntry: Codable, Equatable, Sendable {
        /// The family (digit runs as `#`), as `drift.families` writes it.
        public var family: String
        /// The hour's alert-class requests of the family.
        public var requests: Int64
        /// `urlsession_default`, `wkwebview_without_token`, `safari`, `sdk` or `unknown`.
        public var stack: String
        /// The bundle a CFNetwork default names (the app's, or an extension's).
        public var bundle: String?
        public var bundleIsExtension: Bool?
        /// The SDK's product token, for `sdk`.
        public var sdk: String?
        /// Where to fix it, in one sentence.
        public var fix: String
        /// The app release the family's split clients are on, when one clearly stands out.
        public var release: ReleaseEntry?
        /// Why `release` is null.
        public var releaseNote: String?
        /// The iOS versions the family's UAs name (`17.4`), oldest first.
        public var ios: [String]
        /// True when some of them come from `Darwin/x.y` alone (a UA naming no device: it could
        /// be macOS).
        public var iosFromDarwinOnly: Bool?
        /// The first hour of the report (or of `run`'s state) with the family.
        public var firstSeen: String

        enum CodingKeys: String, CodingKey {
            case family, requests, stack, bundle, sdk, fix, release, ios
            case bundleIsExtension = "bundle_is_extension"
            case releaseNote = "release_note"
            case iosFromDarwinOnly = "ios_from_darwin_only"
            case firstSeen = "first_seen"
        }
    }

    /// The release of a cause, as estimated client counts (sampled × 2^level).
    public struct ReleaseEntry: Codable, Equatable, Sendable {
        public var version: String
        /// The family's split clients on the version.
        public var splitClients: Int64
        /// The app's clients on the version.
        public var clientsOnVersion: Int64
        /// The family's split clients, all versions.
        public var familySplitClients: Int64
        /// `high` or `medium` (``ReleaseVerdict``).
        public var confidence: String
        /// The release that does not send it: the most used of those that do not stand out.
        public var consistent: VersionEntry?
        /// True when the counts are estimates (a sample of the hour's clients) or bounded lists
        /// were cut.
        public var approximate: Bool

        enum CodingKeys: String, CodingKey {
            case version, confidence, consistent, approximate
            case splitClients = "split_clients"
            case clientsOnVersion = "clients_on_version"
            case familySplitClients = "family_split_clients"
        }
    }

    public struct VersionEntry: Codable, Equatable, Sendable {
        public var version: String
        public var splitClients: Int64
        public var clientsOnVersion: Int64

        enum CodingKeys: String, CodingKey {
            case version
            case splitClients = "split_clients"
            case clientsOnVersion = "clients_on_version"
        }
    }
}
