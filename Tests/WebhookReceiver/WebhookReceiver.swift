import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A real HTTP receiver on 127.0.0.1 for the alert tests (`receiver.py`, python3's standard
/// library): answers each path as the test's plan says and records every request it gets.
///
/// It stops when the value goes away (its stdin is closed and the process terminated).
public final class WebhookReceiver: @unchecked Sendable {
    /// One answer: status, body, headers, and seconds to wait before answering; the body is
    /// sent `repeat` times (a huge answer), with `drip` seconds between its bytes (a slow one).
    public struct Reply: Encodable, Sendable {
        public var status: Int
        public var body: String
        public var headers: [String: String]
        public var delay: Double
        public var `repeat`: Int
        public var drip: Double
        /// Interim (1xx) answers sent before this one (`[100, 102]`).
        public var interim: [Int]

        public init(
            status: Int, body: String = "", headers: [String: String] = [:], delay: Double = 0, repeat: Int = 1,
            drip: Double = 0, interim: [Int] = []
        ) {
            self.interim = interim
            self.status = status
            self.body = body
            self.headers = headers
            self.delay = delay
            self.repeat = `repeat`
            self.drip = drip
        }

        /// A redirect to `location`.
        public static func redirect(_ status: Int, to location: String) -> Reply {
            Reply(status: status, headers: ["Location": location])
        }

        public static func json(_ body: String, status: Int = 200) -> Reply {
            Reply(status: status, body: body, headers: ["Content-Type": "application/json"])
        }
    }

    /// One request as the receiver got it.
    public struct Request: Sendable {
        public var method: String
        /// Path and query.
        public var path: String
        /// Header names in lower case.
        public var headers: [String: String]
        public var body: [UInt8]
        /// Arrival, in seconds of a monotonic clock.
        public var time: Double
        public var text: String { String(decoding: body, as: UTF8.self) }
    }

    private struct Plan: Encodable {
        struct TLS: Encodable {
            var cert: String
            var key: String
        }
        var routes: [String: [Reply]]
        var `default`: [Reply]
        var tls: TLS?
        var proxy = false
    }

    /// The certificates a TLS receiver may serve, each its own CA (trust it to talk to the
    /// receiver): `localhost` and 127.0.0.1, or only the name `other.example`.
    public enum Certificate: String, Sendable {
        case loopback = "test-tls"
        case otherName = "test-tls-other"

        public var path: String { file("crt") }
        var key: String { file("key") }
        private func file(_ ext: String) -> String {
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("\(rawValue).\(ext)")
                .path
        }
    }

    /// The loopback certificate's file.
    public static var testCertificate: String { Certificate.loopback.path }

    private struct Record: Decodable {
        var method: String
        var path: String
        var headers: [String: String]
        var body: String
        var time: Double
    }

    public let port: Int
    private let process: Process
    private let input: Pipe
    private let directory: URL
    private let log: URL

    public let tls: Bool

    /// `http://127.0.0.1:PORT`, or `https://` for a TLS receiver.
    public var baseURL: String { "\(tls ? "https" : "http")://127.0.0.1:\(port)" }

    /// Starts a receiver: the n-th request to a path in `routes` gets its n-th reply (the last
    /// repeats); other paths get `fallback`.
    /// With `tls`, it serves HTTPS with `certificate`.
    /// With `proxy`, it is a forward proxy instead (`routes` unused): a request for an
    /// absolute `http://` URL is passed on, a `CONNECT HOST:PORT` tunnelled; both are recorded,
    /// with the URL or `HOST:PORT` as the path.
    public init(
        routes: [String: [Reply]], fallback: [Reply] = [Reply(status: 404)], tls: Bool = false,
        certificate: Certificate = .loopback, proxy: Bool = false
    ) throws {
        self.tls = tls
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "uaaudit-receiver-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let planFile = directory.appendingPathComponent("plan.json")
        log = directory.appendingPathComponent("requests.jsonl")
        let served = tls ? Plan.TLS(cert: certificate.path, key: certificate.key) : nil
        try JSONEncoder().encode(Plan(routes: routes, default: fallback, tls: served, proxy: proxy)).write(to: planFile)
        try Data().write(to: log)

        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("receiver.py")
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path, planFile.path, log.path]
        input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        var line = Data()
        while !line.contains(0x0A) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        guard let port = Int(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
        else {
            process.terminate()
            throw ReceiverError("receiver.py did not start (is python3 installed?)")
        }
        self.port = port
    }

    deinit {
        try? input.fileHandleForWriting.close()
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: directory)
    }

    /// Every request received so far, in order of arrival.
    public func requests() throws -> [Request] {
        let data = try Data(contentsOf: log)
        return try data.split(separator: 0x0A).map { line in
            let record = try JSONDecoder().decode(Record.self, from: Data(line))
            return Request(
                method: record.method, path: record.path, headers: record.headers,
                body: [UInt8](Data(base64Encoded: record.body) ?? Data()), time: record.time)
        }
    }

    /// A loopback port that nothing listens on (bound, then closed), for "connection refused".
    public static func refusingPort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ReceiverError("socket failed") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else { throw ReceiverError("bind failed") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

/// The receiver could not start.
public struct ReceiverError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
