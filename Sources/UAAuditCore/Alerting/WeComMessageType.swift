/// WeCom's two message types: markdown (up to 4096 bytes) or text (up to 2048 bytes, can @ people).
package enum WeComMessageType: String, Codable, CaseIterable, Sendable {
    case markdown
    case text
}
