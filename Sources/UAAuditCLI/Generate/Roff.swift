/// Text made safe for roff (man(7)): backslashes and hyphens escaped, and no line that starts
/// with a control character.
enum Roff {
    /// `text` as roff text: `\` as `\e`, `-` as `\-` (option names copy as typed), and a
    /// leading `.` or `'` guarded by `\&`.
    static func escape(_ text: String) -> String {
        var out = ""
        for ch in text {
            switch ch {
            case "\\": out += "\\e"
            case "-": out += "\\-"
            default: out.append(ch)
            }
        }
        return out.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.first == "." || line.first == "'" ? "\\&" + line : String(line)
        }.joined(separator: "\n")
    }

    static func bold(_ text: String) -> String { "\\fB" + escape(text) + "\\fR" }
    static func italic(_ text: String) -> String { "\\fI" + escape(text) + "\\fR" }

    /// An option's signature: `-o, --out FILE` with the names bold and the value italic.
    static func signature(_ option: OptionDef) -> String {
        (option.short.map { bold("-\($0)") + ", " } ?? "") + bold(option.flag)
            + (option.valueName.map { " " + italic($0) } ?? "")
    }

    /// Wrapped lines as one paragraph for roff to fill. A block whose later lines are indented
    /// is a list (`init   prints …` with its text under it): each item becomes a tagged
    /// paragraph, its first word the tag.
    static func paragraph(_ lines: [Substring]) -> String {
        guard lines.dropFirst().contains(where: { $0.first == " " }) else {
            return escape(lines.map { $0.trimmingCharacters(in: " ") }.joined(separator: "\n"))
        }
        var items: [[Substring]] = []
        for line in lines {
            if line.first == " ", !items.isEmpty { items[items.count - 1].append(line) } else { items.append([line]) }
        }
        return items.map { item in
            let first = item[0].split(separator: " ", maxSplits: 1)
            let body = ((first.count > 1 ? [first[1]] : []) + item.dropFirst()).map { $0.trimmingCharacters(in: " ") }
            return ".TP\n" + bold(String(first[0])) + "\n" + escape(body.joined(separator: "\n"))
        }.joined(separator: "\n")
    }

    /// Paragraphs apart by a blank line, each as ``paragraph(_:)``, apart by `.PP`.
    static func paragraphs(_ text: String) -> String {
        var blocks: [[Substring]] = [[]]
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.isEmpty { blocks.append([]) } else { blocks[blocks.count - 1].append(line) }
        }
        return blocks.filter { !$0.isEmpty }.map(paragraph).joined(separator: "\n.PP\n")
    }
}

extension Substring {
    fileprivate func trimmingCharacters(in set: Character) -> String {
        String(drop { $0 == set }.reversed().drop { $0 == set }.reversed())
    }
}
