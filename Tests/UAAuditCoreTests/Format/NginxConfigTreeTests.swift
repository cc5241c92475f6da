import Foundation
import Testing

@testable import UAAuditAudit
@testable import UAAuditInput
@testable import UAAuditReport
@testable import UAAuditRun

/// The configuration as nginx reads it: `nginx -T` output and files with includes.
@Suite struct NginxConfigTreeTests {
    static let dump = """
        # configuration file /etc/nginx/nginx.conf:
        http {
            include /etc/nginx/conf.d/*.conf;
            include sites-enabled/*;
            access_log /var/log/nginx/access.log;
        }

        # configuration file /etc/nginx/conf.d/b.conf:
        log_format js escape=json '{"ua":"$http_user_agent","t":"$msec"}';

        # configuration file /etc/nginx/conf.d/a.conf:
        log_format short '$remote_addr $status';

        # configuration file /etc/nginx/sites-enabled/default:
        server { access_log /var/log/nginx/site.log js; access_log off; }

        """

    @Test func dumpFollowsIncludesInSortedOrder() throws {
        let tree = try NginxConfigTree.fromDump(Array(Self.dump.utf8))
        #expect(tree.mainPath == "/etc/nginx/nginx.conf")
        #expect(
            tree.files == [
                "/etc/nginx/nginx.conf", "/etc/nginx/conf.d/a.conf", "/etc/nginx/conf.d/b.conf",
                "/etc/nginx/sites-enabled/default",
            ])
        #expect(tree.definitions.map(\.name) == ["short", "js", "combined"])
        #expect(tree.definitions[1].escape == .json)
        #expect(tree.definitions[1].place == "/etc/nginx/conf.d/b.conf:1")
        #expect(
            tree.accessLogs == [
                .init(path: "/var/log/nginx/site.log", formatName: "js", place: "/etc/nginx/sites-enabled/default:1"),
                .init(path: nil, formatName: "", place: "/etc/nginx/sites-enabled/default:1"),
                // The one server block, included, has access_log lines of its own: they replace it.
                .init(
                    path: "/var/log/nginx/access.log", formatName: "combined", place: "/etc/nginx/nginx.conf:4",
                    replaced: true),
            ])
        #expect(try tree.logFormat(named: "combined").string == BuiltinFormats.combined)
    }

    /// A level's access_log lines replace those it would inherit: an http block's log is
    /// written only if some server block of it has none of its own (a location's own do not
    /// count for its server).
    @Test func anHttpLogEveryServerReplacesIsNeverWritten() throws {
        func replaced(_ servers: String, after: Bool = false) throws -> [String: Bool] {
            let http = "access_log /var/log/nginx/access.log;"
            let dump = """
                # configuration file /etc/nginx/nginx.conf:
                events {}
                http {
                    \(after ? "" : http)
                    \(servers)
                    include sites/*;
                    \(after ? http : "")
                }
                # configuration file /etc/nginx/sites/a:
                server { listen 81; access_log /var/log/nginx/a.log; }

                """
            let tree = try NginxConfigTree.fromDump(Array(dump.utf8))
            return Dictionary(
                uniqueKeysWithValues: tree.accessLogs.compactMap { log in log.path.map { ($0, log.replaced) } })
        }
        let own = "server { listen 80; access_log /var/log/nginx/b.log; }"
        #expect(
            try replaced(own) == [
                "/var/log/nginx/access.log": true, "/var/log/nginx/a.log": false, "/var/log/nginx/b.log": false,
            ])
        #expect(try replaced(own, after: true)["/var/log/nginx/access.log"] == true)
        #expect(try replaced("server { listen 80; }")["/var/log/nginx/access.log"] == false)
        #expect(
            try replaced("server { listen 80; location / { access_log /var/log/nginx/c.log; } }")[
                "/var/log/nginx/access.log"] == false)
        #expect(try replaced("server { listen 80; access_log off; }")["/var/log/nginx/access.log"] == true)
    }

    @Test func notDumpOutputIsAnError() {
        #expect(throws: FormatError.self) { try NginxConfigTree.fromDump(Array("http {}\n".utf8)) }
    }

    @Test func aCycleInADumpIsRejected() {
        let dump =
            "# configuration file /n/nginx.conf:\ninclude x.conf;\n# configuration file /n/x.conf:\ninclude nginx.conf;\n"
        #expect(
            throws: FormatError.configSyntax(
                path: "/n/nginx.conf", line: 0,
                message: "include cycle: /n/nginx.conf includes /n/x.conf includes /n/nginx.conf")
        ) {
            try NginxConfigTree.fromDump(Array(dump.utf8))
        }
    }

    /// nginx reads relative includes from its conf prefix, the directory of the `-c` path as
    /// given: a main file that is a symbolic link into another directory does not move them.
    @Test func relativeIncludesOfASymlinkedMainFileAreReadBesideTheLink() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("tree-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        for dir in ["etc/conf.d", "opt/conf.d"] {
            try FileManager.default.createDirectory(atPath: "\(root)/\(dir)", withIntermediateDirectories: true)
        }
        try "http { include conf.d/*.conf; }\n".write(
            toFile: "\(root)/opt/nginx.conf", atomically: true, encoding: .utf8)
        try "log_format beside_link '$remote_addr';\n".write(
            toFile: "\(root)/etc/conf.d/a.conf", atomically: true, encoding: .utf8)
        try "log_format beside_target '$status';\n".write(
            toFile: "\(root)/opt/conf.d/a.conf", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(
            atPath: "\(root)/etc/nginx.conf", withDestinationPath: "\(root)/opt/nginx.conf")
        let tree = try NginxConfigTree.load(path: "\(root)/etc/nginx.conf")
        #expect(tree.files == ["\(root)/etc/nginx.conf", "\(root)/etc/conf.d/a.conf"])
        #expect(tree.definitions.map(\.name) == ["beside_link", "combined"])
    }

    @Test(arguments: [
        ("$remote_addr [$time_local] \"$request\" $status \"$http_user_agent\"", true, true),
        ("$remote_addr $status", false, false),
        ("${msec}|${http_user_agent}", true, false),
    ])
    func needs(format: String, auditable: Bool, complete: Bool) {
        let needs = FormatNeeds(formatString: format)
        #expect(needs.auditable == auditable)
        #expect(needs.complete == complete)
    }
}
