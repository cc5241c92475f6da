import Foundation
import Testing

/// Unsafe memory stays inside a few small internal types: no `public` or `package`
/// declaration of the core takes or returns a raw pointer (the CLI sees bytes as `RawSpan`s
/// and arrays), and the only public API is the report model and its encoding.
@Suite struct AccessLevelTests {
    static let core = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources/UAAuditCore")

    /// `public` or `package`, modifiers, then what is declared (anywhere on a line, so
    /// `extension X { package func … }` counts too).
    nonisolated(unsafe) static let declaration =
        /(?:^|[\s{;(])(public|package)\s+(?:(?:static|final|mutating|nonmutating|override|private\(set\)|nonisolated|lazy|indirect|convenience|required)\s+)*(?:func|var|let|init|subscript|struct|class|enum|protocol|typealias|case|actor)\b/

    /// (file, line, declaration head) of every public or package declaration of the core; a
    /// function's head runs to its opening brace.
    static func declarations() throws -> [(file: String, line: Int, head: String, isPublic: Bool)] {
        var found: [(String, Int, String, Bool)] = []
        let files = FileManager.default.enumerator(atPath: core.path)?.compactMap { $0 as? String } ?? []
        for file in files where file.hasSuffix(".swift") {
            let lines = try String(contentsOf: core.appendingPathComponent(file), encoding: .utf8)
                .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            for (i, line) in lines.enumerated() {
                if line.trimmingCharacters(in: .whitespaces).hasPrefix("//") { continue }
                guard let match = line.firstMatch(of: Self.declaration) else { continue }
                let level = String(match.output.1)
                var head = String(line[match.range.lowerBound...])
                if head.contains("func ") || head.contains("init(") || head.contains("subscript") {
                    var j = i
                    while !lines[j].contains("{"), j + 1 < lines.count, j - i < 8 {
                        j += 1
                        head += "\n" + lines[j]
                    }
                }
                found.append((file, i + 1, String(head.split(separator: "{").first ?? ""), level == "public"))
            }
        }
        return found
    }

    @Test func noPublicOrPackageDeclarationMentionsARawPointer() throws {
        let declarations = try Self.declarations()
        #expect(declarations.count > 300)
        let unsafe = declarations.filter {
            $0.head.contains("UnsafeRawPointer") || $0.head.contains("UnsafeMutableRawPointer")
                || $0.head.contains("UnsafePointer") || $0.head.contains("UnsafeMutablePointer")
                || $0.head.contains("UnsafeRawBufferPointer") || $0.head.contains("UnsafeMutableRawBufferPointer")
                || $0.head.contains("UnsafeBufferPointer") || $0.head.contains("UnsafeMutableBufferPointer")
                || $0.head.contains("OpaquePointer") || $0.head.contains("Unmanaged")
        }
        #expect(unsafe.isEmpty, "\(unsafe.map { "\($0.file):\($0.line): \($0.head)" }.joined(separator: "\n"))")
    }

    @Test func thePublicAPIIsTheReportModelAndItsEncoding() throws {
        let files = Set(try Self.declarations().filter(\.isPublic).map(\.file))
        #expect(
            files == [
                "Report/Report.swift", "Report/ReportEncoding.swift", "Report/InsightEntries.swift",
                "Report/Coverage.swift", "Insight/StatusCounts.swift", "Format/EscapeMode.swift",
            ])
    }
}
