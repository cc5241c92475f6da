import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Something an end-to-end test needs that uaaudit does not provide: a program (nginx,
/// Alertmanager, promtool…) or a privilege (root, mounting a tmpfs).
///
/// A test that needs one carries `.requires(…)`: when it is missing the runner reports the test
/// as skipped, with a loud message; with `UAAUDIT_REQUIRE_SERVERS=1` (CI) the test runs anyway
/// and its own lookup (``ExternalTool/find(_:test:)``, ``Tmpfs/mount(kib:test:)``…) fails it.
///
/// `UAAUDIT_TEST_HIDE_TOOLS=nginx,promtool` makes every lookup treat those as missing (by the
/// names below, or a program's file name), to check the skip and the CI failure on a machine
/// that has them.
enum Requirement: String, CaseIterable, Sendable {
    case nginx
    case alertmanager
    case promtool
    case prometheus
    case nodeExporter = "node_exporter"
    case chromium
    case script
    case python3
    case setpriv
    case zsh
    case groff
    case man
    case logrotate
    case faketime
    /// Running as root (uid 0).
    case root
    /// Mounting a tmpfs (root with the right to mount, as CI has).
    case tmpfs

    /// Where the program may be installed, first found wins (empty for a privilege).
    var paths: [String] {
        switch self {
        case .nginx: ["/usr/sbin/nginx", "/usr/bin/nginx", "/usr/local/sbin/nginx"]
        case .alertmanager:
            ["/usr/bin/prometheus-alertmanager", "/usr/bin/alertmanager", "/usr/local/bin/alertmanager"]
        case .promtool: ["/usr/bin/promtool", "/usr/local/bin/promtool"]
        case .prometheus: ["/usr/bin/prometheus", "/usr/local/bin/prometheus"]
        case .nodeExporter:
            ["/usr/bin/prometheus-node-exporter", "/usr/bin/node_exporter", "/usr/local/bin/node_exporter"]
        case .chromium: ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]
        case .script: ["/usr/bin/script"]
        case .python3: ["/usr/bin/python3"]
        case .setpriv: ["/usr/bin/setpriv", "/bin/setpriv"]
        case .zsh: ["/usr/bin/zsh", "/bin/zsh"]
        case .groff: ["/usr/bin/groff"]
        case .man: ["/usr/bin/man"]
        case .logrotate: ["/usr/sbin/logrotate", "/usr/bin/logrotate"]
        case .faketime: ["/usr/bin/faketime"]
        case .root, .tmpfs: []
        }
    }

    /// The Debian package that installs it, as the loud message names it.
    var package: String {
        switch self {
        case .nginx: "nginx"
        case .alertmanager: "prometheus-alertmanager"
        case .promtool: "prometheus (promtool)"
        case .prometheus: "prometheus"
        case .nodeExporter: "prometheus-node-exporter"
        case .chromium: "chromium"
        case .script: "bsdutils (script)"
        case .python3: "python3"
        case .setpriv: "util-linux (setpriv)"
        case .zsh: "zsh"
        case .groff: "groff-base (groff)"
        case .man: "man-db (man)"
        case .logrotate: "logrotate"
        case .faketime: "faketime"
        case .root, .tmpfs: ""
        }
    }

    /// Why a test that needs it is skipped.
    var missing: String {
        switch self {
        case .root: "NOT ROOT: the test runs uaaudit as nobody. Run the tests as root (as CI does)."
        case .tmpfs:
            "CANNOT MOUNT A TMPFS: run the tests as root (as CI does) to check real ENOSPC and EROFS."
        default: "\(package.uppercased()) IS NOT INSTALLED. Install it (scripts/install-deps.sh)."
        }
    }

    /// True when `UAAUDIT_TEST_HIDE_TOOLS` lists it (by name, or by a program's file name).
    var isHidden: Bool {
        Self.hidden.contains(rawValue) || paths.contains { Self.hidden.contains(($0 as NSString).lastPathComponent) }
    }

    /// True when it is there (and not hidden).
    var isPresent: Bool {
        if isHidden { return false }
        switch self {
        case .root: return getuid() == 0
        case .tmpfs: return Self.canMountTmpfs
        default: return ExternalTool.locate(self) != nil
        }
    }

    static let hidden: Set<String> = Set(
        (ProcessInfo.processInfo.environment["UAAUDIT_TEST_HIDE_TOOLS"] ?? "").split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespaces)
        }.filter { !$0.isEmpty })

    /// Whether this process may mount a tmpfs: tried once, on a throw-away mount point.
    static let canMountTmpfs: Bool = {
        guard getuid() == 0, let scratch = try? Scratch() else { return false }
        let point = scratch.path("probe")
        guard (try? FileManager.default.createDirectory(atPath: point, withIntermediateDirectories: false)) != nil,
            (try? ExternalTool.run("/bin/mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", point]).status) == 0
        else { return false }
        if (try? ExternalTool.run("/bin/umount", [point]).status) != 0 {
            _ = try? ExternalTool.run("/bin/umount", ["-l", point])
        }
        return true
    }()
}

extension Trait where Self == ConditionTrait {
    /// Runs the test when `requirement` is present. When it is missing the test is reported as
    /// skipped, after a loud message; with `UAAUDIT_REQUIRE_SERVERS=1` it runs all the same,
    /// so that its lookup fails it and CI never skips silently.
    static func requires(_ requirement: Requirement, sourceLocation: SourceLocation = #_sourceLocation) -> Self {
        .enabled(Comment(rawValue: requirement.missing), sourceLocation: sourceLocation) {
            if requirement.isPresent || ExternalTool.required { return true }
            print("\n*** \(requirement.missing) The test is SKIPPED. ***\n")
            return false
        }
    }
}
