import Foundation

/// A fresh directory under the system temp dir, removed when the value goes away.
final class TempDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("uaaudit-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    @discardableResult
    func write(_ name: String, _ bytes: [UInt8]) throws -> String {
        let p = path(name)
        try Data(bytes).write(to: URL(fileURLWithPath: p))
        return p
    }
}
