import Foundation

/// A throw-away nginx (Debian's package) on a free 127.0.0.1 port, in the foreground with its
/// own prefix, stopped when the value goes away.
final class LiveNginx {
    let dir: Scratch
    let port: Int
    let binary: String
    var log: String { dir.path("logs/access.log") }

    /// Starts nginx with `logFormats` (log_format directives) and `accessLogs` (access_log
    /// directives; `LOGS/` stands for the log folder); by default the ua_log format to access.log.
    /// `locations` replaces the default `location / { return 200 "ok\n"; }`.
    /// `http` is put in the http block before the server (maps, zones).
    init(
        binary: String, logFormats: String? = nil, accessLogs: String? = nil, locations: String? = nil,
        http: String = ""
    ) throws {
        dir = try Scratch()
        try FileManager.default.createDirectory(atPath: dir.path("logs"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: dir.path("tmp"), withIntermediateDirectories: true)
        port = try LiveNginx.freePort()
        self.binary = binary
        let user = getuid() == 0 ? "user root;" : ""
        let log = dir.path("logs/access.log")
        server = Process()
        try dir.write(
            "nginx.conf",
            """
            \(user)
            worker_processes 2;
            pid \(dir.path("nginx.pid"));
            error_log \(dir.path("error.log"));
            events { worker_connections 64; }
            http {
                client_body_temp_path \(dir.path("tmp"));
                proxy_temp_path \(dir.path("tmp"));
                fastcgi_temp_path \(dir.path("tmp"));
                uwsgi_temp_path \(dir.path("tmp"));
                scgi_temp_path \(dir.path("tmp"));
                \(logFormats ?? LiveNginx.uaLogFormat)
                \(http)
                server {
                    listen 127.0.0.1:\(port);
                    \(accessLogs?.replacingOccurrences(of: "LOGS/", with: dir.path("logs") + "/") ?? "access_log \(log) ua_log;")
                    \(locations ?? #"location / { return 200 "ok\n"; }"#)
                }
            }
            """)
        // In the foreground (daemon off): a daemonising nginx leaves Foundation's Process
        // waiting for a parent that has already gone.
        server.executableURL = URL(fileURLWithPath: binary)
        server.arguments = [
            "-p", dir.url.path, "-c", dir.path("nginx.conf"), "-e", dir.path("error.log"), "-g", "daemon off;",
        ]
        try server.run()
        for _ in 0..<100 where !FileManager.default.fileExists(atPath: dir.path("nginx.pid")) { usleep(20_000) }
        usleep(100_000)
    }

    let server: Process

    static let uaLogFormat = """
        log_format ua_log '$remote_addr - $remote_user [$time_local] "$request" '
                          '$status $body_bytes_sent "$http_referer" "$http_user_agent" '
                          'rt=$request_time uct="$upstream_connect_time" '
                          'uht="$upstream_header_time" urt="$upstream_response_time"';
        """

    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        addr.sin_port = 0
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) }
        }
        _ = withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) }
        }
        return Int(UInt16(bigEndian: addr.sin_port))
    }

    /// `nginx -p DIR -c DIR/nginx.conf [signal]`.
    func control(_ extra: [String]) throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: binary)
        p.arguments = ["-p", dir.url.path, "-c", dir.path("nginx.conf"), "-e", dir.path("error.log")] + extra
        try p.run()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else { throw LiveNginxError.failed(extra.joined(separator: " ")) }
    }

    /// Sends `count` requests with `ua` through curl (one process, keep-alive).
    func send(_ count: Int, ua: String) throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        p.arguments = ["-s", "-o", "/dev/null", "-A", ua] + (0..<count).map { "http://127.0.0.1:\(port)/r?\($0)" }
        try p.run()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else { throw LiveNginxError.failed("curl") }
    }

    /// One GET of `path` with curl from the loopback address `source` (any 127.x.y.z is a
    /// local address on Linux, so each stands for a different client), with `headers`;
    /// returns the status nginx answered.
    func request(_ path: String, ua: String, from source: String, headers: [String] = []) throws -> Int {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        p.arguments =
            ["-s", "-o", "/dev/null", "-w", "%{http_code}", "--interface", source, "-A", ua]
            + headers.flatMap { ["-H", $0] } + ["http://127.0.0.1:\(port)\(path)"]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        guard p.terminationStatus == 0, let status = Int(String(decoding: data, as: UTF8.self)) else {
            throw LiveNginxError.failed("curl \(path) from \(source)")
        }
        return status
    }

    /// One GET of `path` with `ua` (none when empty): the status and the body. nginx's 444
    /// closes the connection without an answer, which curl reports as status 52: 444 here.
    func answer(_ path: String, ua: String) throws -> (status: Int, body: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        let body = dir.path("body-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(atPath: body) }
        p.arguments =
            ["-s", "-o", body, "-w", "%{http_code}", "-H", ua.isEmpty ? "User-Agent:" : "User-Agent: \(ua)"]
            + ["http://127.0.0.1:\(port)\(path)"]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        if p.terminationStatus == 52 { return (444, "") }
        guard p.terminationStatus == 0, let status = Int(String(decoding: data, as: UTF8.self)) else {
            throw LiveNginxError.failed("curl \(path) with UA \(ua)")
        }
        return (status, (try? String(contentsOfFile: body, encoding: .utf8)) ?? "")
    }

    /// Waits until nginx has written `lines` lines in all.
    func waitForLines(_ lines: Int, in paths: [String]) {
        for _ in 0..<200 {
            let total = paths.reduce(0) { sum, path in
                sum + ((try? String(contentsOfFile: path, encoding: .utf8))?.split(separator: "\n").count ?? 0)
            }
            if total >= lines { return }
            usleep(20_000)
        }
    }

    deinit {
        server.terminate()
        server.waitUntilExit()
    }
}

enum LiveNginxError: Error { case failed(String) }
