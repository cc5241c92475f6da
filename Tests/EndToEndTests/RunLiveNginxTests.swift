import Foundation
import Testing

/// `uaaudit run` on the log of a real nginx (Debian's package, on 127.0.0.1) across
/// `mv access.log access.log.1 && nginx -s reopen`, with runs in between.
@Suite struct RunLiveNginxTests {
    final class Nginx {
        let dir: Scratch
        let port: Int
        let binary: String
        var log: String { dir.path("logs/access.log") }

        init(binary: String) throws {
            dir = try Scratch()
            try FileManager.default.createDirectory(atPath: dir.path("logs"), withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: dir.path("tmp"), withIntermediateDirectories: true)
            port = try Nginx.freePort()
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
                    log_format ua_log '$remote_addr - $remote_user [$time_local] "$request" '
                                      '$status $body_bytes_sent "$http_referer" "$http_user_agent" '
                                      'rt=$request_time uct="$upstream_connect_time" '
                                      'uht="$upstream_header_time" urt="$upstream_response_time"';
                    server {
                        listen 127.0.0.1:\(port);
                        access_log \(log) ua_log;
                        location / { return 200 "ok\\n"; }
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
            guard p.terminationStatus == 0 else { throw NginxError.failed(extra.joined(separator: " ")) }
        }

        /// Sends `count` requests with `ua` through curl (one process, keep-alive).
        func send(_ count: Int, ua: String) throws {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
            p.arguments = ["-s", "-o", "/dev/null", "-A", ua] + (0..<count).map { "http://127.0.0.1:\(port)/r?\($0)" }
            try p.run()
            p.waitUntilExit()
            guard p.terminationStatus == 0 else { throw NginxError.failed("curl") }
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

    enum NginxError: Error { case failed(String) }

    @Test func rotationUnderARealNginxLosesAndDoublesNothing() throws {
        guard let binary = LiveNginxTests.nginxPath() else {
            let message =
                "NGINX IS NOT INSTALLED: the live nginx rotation test is SKIPPED. Install it (scripts/install-deps.sh)."
            print("\n*** \(message) ***\n")
            if LiveNginxTests.required { Issue.record("UAAUDIT_REQUIRE_SERVERS=1 but \(message)") }
            return
        }
        let nginx = try Nginx(binary: binary)
        let state = nginx.dir.path("state.json")
        let report = nginx.dir.path("report.json")
        func run() throws -> [String: Int] {
            let result = try Tool.run(["run", "-q", "--state", state, "--out", report, "--host", "t", nginx.log])
            #expect(result.status == 0, "\(result.stderr)")
            let json = try unwrap(
                JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any])
            let totals = try unwrap(json["totals"] as? [String: Any])
            #expect((json["gaps"] as? [Any])?.isEmpty ?? true)
            return try unwrap(totals["classes"] as? [String: Int]).filter { $0.value > 0 }
        }
        try nginx.send(30, ua: Lines.urlsession)
        nginx.waitForLines(30, in: [nginx.log])
        #expect(try run() == ["urlsession": 30])
        try nginx.send(12, ua: Lines.cfnetwork)
        try FileManager.default.moveItem(atPath: nginx.log, toPath: nginx.log + ".1")
        try nginx.send(5, ua: "curl/8.0")  // still written to access.log.1 until the reopen
        try nginx.control(["-s", "reopen"])
        nginx.waitForLines(47, in: [nginx.log + ".1"])
        usleep(300_000)  // the reopen reaches the workers
        try nginx.send(20, ua: Lines.urlsession)
        nginx.waitForLines(67, in: [nginx.log, nginx.log + ".1"])
        #expect(try run() == ["urlsession": 50, "inconsistent": 12, "other": 5])
        try nginx.send(8, ua: "-")
        nginx.waitForLines(75, in: [nginx.log, nginx.log + ".1"])
        #expect(try run() == ["urlsession": 50, "inconsistent": 12, "other": 5, "missing": 8])
    }
}
