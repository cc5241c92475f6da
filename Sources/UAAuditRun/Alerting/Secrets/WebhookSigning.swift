import FoundationEssentials
import UAAuditInput

/// The signatures that DingTalk and Feishu robots check when signing (加签) is turned on.
enum WebhookSigning {
    /// DingTalk: Base64 of HMAC-SHA256 keyed by the secret over `"<timestamp ms>\n<secret>"`.
    ///
    /// The caller appends it to the URL as `&timestamp=<ms>&sign=<percent-encoded signature>`.
    static func dingTalk(secret: String, timestampMilliseconds: Int64) -> String {
        let message = Array("\(timestampMilliseconds)\n\(secret)".utf8)
        return Data(SHA256.hmac(key: Array(secret.utf8), message: message)).base64EncodedString()
    }

    /// Feishu and Lark: Base64 of HMAC-SHA256 keyed by `"<timestamp s>\n<secret>"` over an empty message.
    ///
    /// The caller puts `timestamp` (as a string) and `sign` in the JSON body.
    static func feishu(secret: String, timestampSeconds: Int64) -> String {
        let key = Array("\(timestampSeconds)\n\(secret)".utf8)
        return Data(SHA256.hmac(key: key, message: [])).base64EncodedString()
    }

    /// Percent-encodes everything but RFC 3986's unreserved characters, as a query value needs.
    static func percentEncoded(_ text: String) -> String {
        PercentEncoding.encodeAllButUnreserved(text)
    }
}
