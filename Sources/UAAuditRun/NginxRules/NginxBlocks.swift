import UAAuditInput

/// An nginx configuration's directives as the blocks they were written in: what each `http`,
/// `server`, `location`, `if` and `map` block holds, in the order nginx reads it.
///
/// ``NginxConfigTree`` keeps directives flat, each with the blocks it is in; this regroups
/// them by the whole chain of blocks they are in, so that a file included in two places (a
/// bot blocker's `if` in two servers) gives two blocks, and two blocks on one line are two.
struct NginxBlocks: Sendable {
    typealias Directive = NginxConfigTree.Located

    /// The directives of each block by its id, in order; "" holds the top level.
    private let children: [String: [Directive]]

    init(_ tree: NginxConfigTree) {
        var children: [String: [Directive]] = [:]
        for directive in tree.directives {
            children[directive.context.joined(separator: "\u{1}"), default: []].append(directive)
        }
        self.children = children
    }

    /// The chain of blocks of the directives inside the block `directive` opens.
    static func id(of directive: Directive) -> String {
        (directive.context + [directive.opens ?? "\(directive.file):\(directive.line) opens none"])
            .joined(separator: "\u{1}")
    }

    /// The directives inside the block `directive` opens (empty for a simple directive).
    func inside(_ directive: Directive) -> [Directive] { children[Self.id(of: directive)] ?? [] }

    /// The directives at the top level of the configuration.
    var top: [Directive] { children[""] ?? [] }

    /// The `http` blocks, in order.
    var httpBlocks: [Directive] { top.filter { $0.words.first == "http" } }

    /// The directives of every `http` block, in order.
    var httpLevel: [Directive] { httpBlocks.flatMap { inside($0) } }

    /// The `server` blocks of the `http` blocks.
    var servers: [Directive] { httpLevel.filter { $0.words.first == "server" } }

    /// The `location` blocks in `block`, nested ones after their parent, each with the chain
    /// of locations it is in (outermost first).
    func locations(in block: Directive, parents: [Directive] = []) -> [(Directive, parents: [Directive])] {
        var result: [(Directive, parents: [Directive])] = []
        for directive in inside(block) where directive.words.first == "location" {
            result.append((directive, parents))
            result += locations(in: directive, parents: parents + [directive])
        }
        return result
    }
}
