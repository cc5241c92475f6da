import Foundation
import PackagePlugin

/// Writes `BuildInfo.swift` (the version from the repository's `VERSION` file and the commit)
/// into the target before every build, so `uaaudit --version` can never disagree with the
/// file that the Debian package takes its version from.
///
/// A prebuild command runs on every build, so a new commit is seen without a clean build;
/// `scripts/build-info.sh` rewrites the file only when its text changes, so an unchanged
/// version and commit recompile nothing. It runs `/bin/sh` (no tool built from source, which
/// a prebuild command may not use) and `git` when the package is a git checkout.
@main
struct BuildInfoPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let root = context.package.directoryURL
        let generated = context.pluginWorkDirectoryURL.appending(path: "Generated")
        return [
            .prebuildCommand(
                displayName: "Writing BuildInfo.swift from VERSION and the git commit",
                executable: URL(fileURLWithPath: "/bin/sh"),
                arguments: [
                    root.appending(path: "scripts/build-info.sh").path, root.path,
                    generated.appending(path: "BuildInfo.swift").path,
                ],
                outputFilesDirectory: generated)
        ]
    }
}
