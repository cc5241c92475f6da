/// The bash completion script (`uaaudit generate bash`, installed as
/// /usr/share/bash-completion/completions/uaaudit): commands, each command's options, fixed
/// choices and paths for option values, and each command's operands. It needs bash alone
/// (not the bash-completion package).
enum BashCompletion {
    static func render() -> String {
        var script = """
            # bash completion for uaaudit; made by 'uaaudit generate bash' from its option declarations.

            _uaaudit_words() { mapfile -t COMPREPLY < <(compgen -W "$1" -- "$cur"); }
            _uaaudit_files() { compopt -o filenames 2>/dev/null; mapfile -t COMPREPLY < <(compgen -f -- "$cur"); }
            _uaaudit_dirs() { compopt -o filenames 2>/dev/null; mapfile -t COMPREPLY < <(compgen -d -- "$cur"); }

            _uaaudit() {
                local cur=${COMP_WORDS[COMP_CWORD]} prev="" cmd="" at=0 i w operands=0
                COMPREPLY=()
                (( COMP_CWORD > 0 )) && prev=${COMP_WORDS[COMP_CWORD-1]}
                # bash splits --name=value at '=': complete the value of --name.
                if [[ $cur == "=" ]]; then
                    cur=""
                elif [[ $prev == "=" ]]; then
                    prev=${COMP_WORDS[COMP_CWORD-2]}
                fi
                for (( i = 1; i < COMP_CWORD; i++ )); do
                    case ${COMP_WORDS[i]} in -*) ;; *) cmd=${COMP_WORDS[i]}; at=$i; break ;; esac
                done
                if [[ -z $cmd ]]; then
                    _uaaudit_words "\(CommandSpec.all.map(\.name).joined(separator: " "))"
                    return 0
                fi
                local valued=" "
                case $cmd in

            """
        for spec in CommandSpec.all where !spec.options.isEmpty {
            let valued = spec.options.filter(\.takesValue).flatMap(names)
            script += "        \(spec.name)) valued=\" \(valued.joined(separator: " ")) \" ;;\n"
        }
        script += """
                esac
                # Operands before this word (an option's value is not one).
                for (( i = at + 1; i < COMP_CWORD; i++ )); do
                    w=${COMP_WORDS[i]}
                    if [[ ${COMP_WORDS[i+1]} == "=" ]]; then
                        (( i += 2 ))
                    elif [[ $w == -* ]]; then
                        [[ $valued == *" $w "* ]] && (( i++ ))
                    else
                        (( operands++ ))
                    fi
                done
                case $cmd in

            """
        for spec in CommandSpec.all {
            script += "    \(spec.name))\n"
            let valued = spec.options.filter(\.takesValue)
            if !valued.isEmpty {
                script += "        case $prev in\n"
                for option in valued {
                    script += "            \(names(option).joined(separator: "|"))) \(complete(option.completion)); return 0 ;;\n"
                }
                script += "        esac\n"
            }
            if !spec.options.isEmpty {
                let words = spec.options.flatMap(names)
                script += "        if [[ $cur == -* ]]; then _uaaudit_words \"\(words.joined(separator: " "))\"; return 0; fi\n"
            }
            let actions = spec.firstOperands
            if !actions.isEmpty {
                script += "        if (( operands == 0 )); then _uaaudit_words \"\(actions.joined(separator: " "))\"; return 0; fi\n"
            }
            if spec.operands != .none {
                script += "        \(complete(spec.operands))\n"
            }
            script += "        ;;\n"
        }
        script += """
                esac
                return 0
            }

            complete -F _uaaudit uaaudit

            """
        return script
    }

    /// `-o --out`: the words that name the option.
    static func names(_ option: OptionDef) -> [String] {
        (option.short.map { ["-\($0)"] } ?? []) + [option.flag]
    }

    /// The shell code that fills COMPREPLY for a value.
    static func complete(_ completion: OptionDef.Completion) -> String {
        switch completion {
        case .none: return ":"
        case .file: return "_uaaudit_files"
        case .directory: return "_uaaudit_dirs"
        case .choices(let words): return "_uaaudit_words \"\(words.joined(separator: " "))\""
        }
    }
}
