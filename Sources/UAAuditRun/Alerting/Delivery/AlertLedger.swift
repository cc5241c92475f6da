import UAAuditAudit
import UAAuditInput

/// What became of every breached hour: pending until each channel configured now has taken
/// it, then delivered; or not alerted at all when the config asks for metrics only.
///
/// The ledger is kept by hour, not by channel: a pending hour is sent to the channels that
/// are configured when a run delivers, minus those that already took it, so correcting a
/// channel's URL sends the hour to the corrected channel instead of dropping it. With no
/// channel configured an hour stays pending (and visible) until a channel is configured or
/// it expires (``pendingLifetime(historyHours:)``). Each hour keeps the id it was given
/// when it closed: every message that carries the hour carries that id.
package struct AlertLedger: Codable, Equatable, Sendable {
    /// Where a breached hour stands.
    package enum Status: String, Codable, Sendable, CaseIterable {
        /// Some configured channel has not taken it yet, or no channel is configured.
        case pending
        /// Every channel configured at the time took it.
        case delivered
        /// The config lists no alert channel on purpose (`"alerts": []`): metrics only.
        case notAlerted = "not_alerted"
    }

    /// How a run is configured to alert.
    package enum Mode: Equatable, Sendable {
        /// These channels (by ``AlertChannel/key``), at least one.
        case channels([String])
        /// No channel given at all: breached hours wait for one.
        case unconfigured
        /// An explicit empty `alerts` list: breached hours are recorded as not alerted.
        case metricsOnly

        /// `channels([])` is no channel at all.
        package static func of(channelKeys: [String], explicitlyNone: Bool) -> Mode {
            if !channelKeys.isEmpty { return .channels(channelKeys) }
            return explicitlyNone ? .metricsOnly : .unconfigured
        }
    }

    /// One breached hour.
    package struct Entry: Codable, Equatable, Sendable {
        /// ``HourAlertID``: the same in every message that carries this hour.
        package var id: String
        /// Why it alerts: `share`, `drift`, or both.
        var kinds: [HourAlertID.Kind]
        package var status: Status
        /// When the run that closed the hour recorded it.
        var recordedAt: String
        /// Channels (by key) that took it.
        package var deliveredTo: [String] = []
        var deliveredAt: String? = nil
        /// Messages sent for it that some channel refused.
        package var failures: Int = 0
        /// The last refusal, shown masked (``Redaction``).
        package var lastError: String? = nil

        enum CodingKeys: String, CodingKey {
            case id, kinds, status, failures
            case recordedAt = "recorded_at"
            case deliveredTo = "delivered_to"
            case deliveredAt = "delivered_at"
            case lastError = "last_error"
        }
    }

    /// By hour (`2026-11-29T17:00:00+08:00`).
    package var hours: [String: Entry] = [:]

    init(hours: [String: Entry] = [:]) { self.hours = hours }

    /// The hours still to send, in time order.
    package var pending: [String] {
        hours.filter { $0.value.status == .pending }.map(\.key).sorted(by: HourKey.isEarlier)
    }

    /// Records an hour that closed breached; an hour already recorded keeps its entry (and id).
    mutating func record(hour: String, id: String, kinds: [HourAlertID.Kind], at time: String, mode: Mode) {
        guard hours[hour] == nil else { return }
        hours[hour] = Entry(
            id: id, kinds: kinds.sorted(), status: mode == .metricsOnly ? .notAlerted : .pending, recordedAt: time)
    }

    /// Applies this run's configuration: with metrics only, nothing pending is ever sent; with
    /// channels, a pending hour that every one of them already took (a channel that refused it
    /// was removed) is delivered.
    mutating func apply(_ mode: Mode, at time: String) {
        for (hour, entry) in hours where entry.status == .pending {
            switch mode {
            case .metricsOnly:
                hours[hour]?.status = .notAlerted
            case .channels(let keys) where keys.allSatisfy(entry.deliveredTo.contains):
                hours[hour]?.status = .delivered
                hours[hour]?.deliveredAt = time
            case .channels, .unconfigured:
                break
            }
        }
    }

    /// The pending hours `channel` has not taken yet, in time order (none unless the mode has it).
    func hours(for channel: String, mode: Mode) -> [String] {
        guard case .channels(let keys) = mode, keys.contains(channel) else { return [] }
        return pending.filter { !(hours[$0]?.deliveredTo.contains(channel) ?? true) }
    }

    /// `channel` took `delivered`: an hour is delivered once every channel of `mode` has it.
    mutating func delivered(_ delivered: [String], to channel: String, at time: String, mode: Mode) {
        guard case .channels(let keys) = mode else { return }
        for hour in delivered {
            guard var entry = hours[hour], entry.status == .pending else { continue }
            if !entry.deliveredTo.contains(channel) { entry.deliveredTo.append(channel) }
            if keys.allSatisfy(entry.deliveredTo.contains) {
                entry.status = .delivered
                entry.deliveredAt = time
            }
            hours[hour] = entry
        }
    }

    /// `channel` refused `refused` (the error already masked): they stay pending.
    mutating func failed(_ refused: [String], error: String) {
        for hour in refused where hours[hour]?.status == .pending {
            hours[hour]?.failures += 1
            hours[hour]?.lastError = error
        }
    }

    /// What a run with no channel says when breached hours wait for one: how many, and how to
    /// configure a channel or say on purpose that there is none.
    package static func unconfiguredNotice(pending: Int) -> String {
        "\(pending) breached hour\(pending == 1 ? "" : "s") wait\(pending == 1 ? "s" : "") for an alert channel: "
            + "give --webhook URL (or an \"alerts\" list in the config) to send "
            + (pending == 1 ? "it" : "them") + ", or \"alerts\": [] in the config for metrics only"
    }

    /// How long a pending hour is kept after it ended, or after it was recorded when that was
    /// later (decided late: runs whose clock was held could not decide it): twice the history
    /// window, so that a run without a channel leaves it pending for at least `history_hours`.
    static func pendingLifetime(historyHours: Int64) -> Int64 { 2 * historyHours * 3600 }

    /// Forgets entries whose hour ended more than `historyHours` before `now` (pending ones:
    /// ``pendingLifetime(historyHours:)``); returns the pending hours dropped, in time order.
    @discardableResult
    mutating func prune(now: Int64, historyHours: Int64) -> [String] {
        var expired: [String] = []
        for (hour, entry) in hours {
            guard let key = HourKey(iso8601: hour) else { continue }
            let end = key.startInstant + 3600
            if entry.status == .pending {
                let decided = max(end, Instant.parse(entry.recordedAt) ?? end)
                if decided + Self.pendingLifetime(historyHours: historyHours) <= now {
                    hours[hour] = nil
                    expired.append(hour)
                }
            } else if end + historyHours * 3600 <= now {
                hours[hour] = nil
            }
        }
        return expired.sorted(by: HourKey.isEarlier)
    }
}

extension HourKey {
    /// Orders hour texts by instant (unparsable ones last, by text).
    static func isEarlier(_ a: String, _ b: String) -> Bool {
        switch (HourKey(iso8601: a), HourKey(iso8601: b)) {
        case (let x?, let y?): return x != y ? x < y : a < b
        case (.some, nil): return true
        case (nil, .some): return false
        case (nil, nil): return a < b
        }
    }
}
