import FoundationEssentials
import UAAuditInput

/// The rules for reading answers that several services share.
enum AnswerReading {
    /// The most of an answer that an error message quotes.
    static let excerptLimit = 200

    /// 5xx and 429 are worth another try (a 429 after its `Retry-After`); nil for other statuses.
    static func retryable(_ response: HTTPResponse, channel: ResolvedChannel) -> AttemptOutcome? {
        guard response.status >= 500 || response.status == 429 else { return nil }
        let failure = DeliveryFailure.http(status: response.status, body: excerpt(response.body, channel: channel))
        return .retry(failure, retryAfter: retryAfter(response))
    }

    /// Any 2xx is success; 5xx and 429 are retried; anything else fails.
    static func byStatus(_ response: HTTPResponse, channel: ResolvedChannel) -> AttemptOutcome {
        if (200..<300).contains(response.status) { return .delivered }
        if let retry = retryable(response, channel: channel) { return retry }
        return .fail(.http(status: response.status, body: excerpt(response.body, channel: channel)))
    }

    /// For services that answer HTTP 200 with a JSON code (0 for success) and message.
    ///
    /// `fields` lists (code, message) key pairs to look for, in order; codes in `rateLimits`
    /// are retried.
    static func byCode(
        _ response: HTTPResponse, channel: ResolvedChannel, fields: [(code: String, message: String)],
        rateLimits: Set<Int>
    ) -> AttemptOutcome {
        let answer = code(in: response.body, fields: fields, channel: channel)
        if let retry = retryable(response, channel: channel) {
            if let answer { return .retry(answer, retryAfter: retryAfter(response)) }
            return retry
        }
        if let answer, case .service(_, let code, _) = answer {
            if code == 0 && response.status == 200 { return .delivered }
            if rateLimits.contains(code) { return .retry(answer, retryAfter: retryAfter(response)) }
            if code != 0 { return .fail(answer) }
        }
        let body = excerpt(response.body, channel: channel)
        if response.status != 200 { return .fail(.http(status: response.status, body: body)) }
        return .fail(.unexpectedAnswer(status: response.status, body: body))
    }

    /// The service's code and message, when the body is a JSON object holding one.
    static func code(in body: [UInt8], fields: [(code: String, message: String)], channel: ResolvedChannel)
        -> DeliveryFailure?
    {
        guard let object = (try? JSONValue.parse(body))?.object else { return nil }
        for field in fields {
            guard let number = object[field.code]?.double, let code = Int(exactly: number) else { continue }
            let message = object[field.message]?.string ?? ""
            return .service(field: field.code, code: code, message: excerpt(Array(message.utf8), channel: channel))
        }
        return nil
    }

    /// `Retry-After` in seconds, when given as a number.
    static func retryAfter(_ response: HTTPResponse) -> Double? {
        guard let text = response.headers["retry-after"]?.trimmed(),
            let seconds = Double(text), seconds.isFinite, seconds >= 0
        else { return nil }
        return seconds
    }

    /// The start of an answer, fit for a one-line message: secrets scrubbed, control and
    /// invisible characters shown escaped, white space runs folded, cut with `…`.
    static func excerpt(_ body: [UInt8], channel: ResolvedChannel) -> String {
        let text = channel.scrub(ReportText.render(Array(body.prefix(4096))))
        var out = ""
        var count = 0
        var lastWasSpace = false
        for scalar in text.unicodeScalars {
            let piece: String
            if scalar == " " || scalar == "\n" || scalar == "\r" || scalar == "\t" {
                if lastWasSpace { continue }
                piece = " "
            } else if scalar.value < 0x20 || scalar.value == 0x7F || (0x80..<0xA0).contains(scalar.value)
                || UntrustedText.isInvisible(scalar.value)
            {
                piece = UntrustedText.piece(for: scalar)
            } else {
                piece = String(scalar)
            }
            lastWasSpace = piece == " "
            if count + piece.count > excerptLimit {
                out += "…"
                break
            }
            out += piece
            count += piece.count
        }
        return out.trimmed()
    }
}
