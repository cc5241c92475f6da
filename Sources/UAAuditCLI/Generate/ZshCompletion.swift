/// The zsh completion function (`uaaudit generate zsh`, installed as
/// /usr/share/zsh/vendor-completions/_uaaudit): commands with their summaries, each command's
/// options with their help, fixed choices and paths for values, and operands.
enum ZshCompletion {
    static func render() -> String {
        var script = """
            #compdef uaaudit
            # zsh completion for uaaudit; made by 'uaaudit generate zsh' from its option declarations.

            _uaaudit() {
              local curcontext=$curcontext ret=1
              local -a commands
              commands=(

            """
        for spec in CommandSpec.all {
            script += "    \(quote(spec.name + ":" + spec.summary.joined(separator: " ")))\n"
        }
        script += """
              )
              if (( CURRENT == 2 )); then
                _describe -t commands 'uaaudit command' commands && ret=0
                return ret
              fi
              local cmd=$words[2]
              shift words
              (( CURRENT-- ))
              curcontext="${curcontext%:*:*}:uaaudit-$cmd:"
              case $cmd in

            """
        for spec in CommandSpec.all {
            var specs = spec.options.map(argument)
            let actions = spec.firstOperands
            if !actions.isEmpty { specs.append(quote("1:action:(\(actions.joined(separator: " ")))")) }
            if spec.operands != .none { specs.append(quote("*:operand:\(action(spec.operands))")) }
            script += "    \(spec.name))\n"
            if specs.isEmpty {
                script += "      ret=0\n"
            } else {
                script += "      _arguments -s -S \\\n"
                script += specs.map { "        " + $0 }.joined(separator: " \\\n") + " && ret=0\n"
            }
            script += "      ;;\n"
        }
        script += """
              esac
              return ret
            }

            _uaaudit "$@"

            """
        return script
    }

    /// One `_arguments` spec: `'(-o --out)'{-o+,--out=}'[help]:FILE:_files'`.
    static func argument(_ option: OptionDef) -> String {
        let help = "[" + option.help.joined(separator: " ").replacing("\\", with: "\\\\")
            .replacing("[", with: "\\[").replacing("]", with: "\\]") + "]"
        let value = option.valueName.map { ":\($0):\(action(option.completion))" } ?? ""
        let many = option.repeatable ? "*" : ""
        let long = option.flag + (option.takesValue ? "=" : "")
        guard let short = option.short else { return quote(many + long + help + value) }
        let shortForm = "-\(short)" + (option.takesValue ? "+" : "")
        let exclusion = option.repeatable ? "*" : quote("(-\(short) \(option.flag))")
        return exclusion + "{\(shortForm),\(long)}" + quote(help + value)
    }

    /// The completion action of a value or an operand.
    static func action(_ completion: OptionDef.Completion) -> String {
        switch completion {
        case .none: return " "
        case .file: return "_files"
        case .directory: return "_files -/"
        case .choices(let words): return "(\(words.joined(separator: " ")))"
        }
    }

    /// `text` in single quotes for zsh.
    static func quote(_ text: String) -> String {
        "'" + text.replacing("'", with: "'\\''") + "'"
    }
}
