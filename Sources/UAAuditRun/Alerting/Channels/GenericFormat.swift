import FoundationEssentials

/// Any endpoint that takes uaaudit's own JSON: the ``AlertNotification`` itself
/// (schema `uaaudit.alert/1`, keys sorted). Any 2xx is success.
struct GenericFormat: ChannelFormat {
    func request(for notification: AlertNotification, to channel: ResolvedChannel, now: Date)
        throws(DeliveryFailure) -> HTTPRequest
    {
        HTTPRequest(url: channel.url, body: try AlertJSON.encode(notification))
    }

    func outcome(of response: HTTPResponse, channel: ResolvedChannel) -> AttemptOutcome {
        AnswerReading.byStatus(response, channel: channel)
    }
}
