/// The services uaaudit notifies, each with its own payload and its own rule for success.
package enum ChannelKind: String, Codable, CaseIterable, Sendable {
    /// WeCom (企业微信) group robot.
    case wecom
    /// DingTalk (钉钉) custom robot, optionally signed.
    case dingtalk
    /// Feishu (飞书) or Lark custom bot, optionally signed.
    case feishu
    /// Slack incoming webhook.
    case slack
    /// Any endpoint that takes uaaudit's own JSON (`uaaudit.alert/1`).
    case generic
    /// Prometheus Alertmanager's API (`POST /api/v2/alerts`).
    case alertmanager

    /// The kind a webhook's host implies, for the services that have one fixed host.
    static func inferred(fromHost host: String) -> ChannelKind? {
        switch host.lowercased() {
        case "qyapi.weixin.qq.com": return .wecom
        case "oapi.dingtalk.com": return .dingtalk
        case "open.feishu.cn", "open.larksuite.com": return .feishu
        case "hooks.slack.com": return .slack
        default: return nil
        }
    }

    /// The kinds, for messages: `wecom, dingtalk, feishu, slack, generic, alertmanager`.
    package static var list: String { allCases.map(\.rawValue).joined(separator: ", ") }

    /// The path segments every webhook of this service has (its documented API path): not
    /// secret, so a service's answer that says "webhook" or "send" is not scrubbed of them.
    /// Any other segment is (``Redaction/secrets(in:except:)``).
    var publicPathSegments: Set<String> {
        switch self {
        case .wecom: return ["cgi-bin", "webhook", "send"]
        case .dingtalk: return ["robot", "send"]
        case .feishu: return ["open-apis", "bot", "v2", "hook"]
        case .slack: return ["services"]
        case .alertmanager: return ["api", "v2", "alerts"]
        case .generic: return []
        }
    }

    /// The query names every webhook of this service has (WeCom's `key`, DingTalk's
    /// `access_token` and the `timestamp` and `sign` uaaudit adds): not secret, though their
    /// values are. Any other query name is.
    var publicQueryNames: Set<String> {
        switch self {
        case .wecom: return ["key"]
        case .dingtalk: return ["access_token", "timestamp", "sign"]
        default: return []
        }
    }

    /// What ``Redaction/secrets(in:except:)`` leaves out for this kind: the public path
    /// segments and query names.
    var publicURLParts: Set<String> { publicPathSegments.union(publicQueryNames) }

    /// Whether the service can check a signature made with a secret.
    var takesSecret: Bool { self == .dingtalk || self == .feishu }

    /// The payload and answer rules of this kind.
    var format: any ChannelFormat {
        switch self {
        case .wecom: return WeComFormat()
        case .dingtalk: return DingTalkFormat()
        case .feishu: return FeishuFormat()
        case .slack: return SlackFormat()
        case .generic: return GenericFormat()
        case .alertmanager: return AlertmanagerFormat()
        }
    }
}
