import FoundationEssentials

/// One service's side of delivery: the request it wants and how to read its answer.
protocol ChannelFormat: Sendable {
    /// The request carrying `notification`, signed where the service wants it, made at `now`
    /// (a signature's timestamp, an alert's end); cut to the service's size limit.
    func request(for notification: AlertNotification, to channel: ResolvedChannel, now: Date)
        throws(DeliveryFailure) -> HTTPRequest

    /// What the service's answer means.
    func outcome(of response: HTTPResponse, channel: ResolvedChannel) -> AttemptOutcome
}
