/// The bash completion script (`uaaudit generate bash`, installed as
/// /usr/share/bash-completion/completions/uaaudit): commands, each command's options, fixed
/// choices and paths for option values, and each command's operands. It needs bash alone
/// (not the bash-completion package).
enum BashCompletion {
    static func render() -> String {
        var script = """
            # bash completion for uaaudit; made by 'uaaudit generate bash' from its option declarations.
            # It survives 'set -e': no arithmetic or test is left to fail outside a condition.

            _uaaudit_words() { mapfile -t COMPREPLY < <(compgen -W "$1" -- "$cur"); }
            _uaaudit_files() { compopt -o filenames 2>/dev/null || true; mapfile -t COMPREPLY < <(compgen -f -- "$cur"); }
            _uaaudit_dirs() { compopt -o filenames 2>/dev/null || true; mapfile -t COMPREPLY < <(compgen -d -- "$cur"); }

            # words, cword and cur with what bash split at ':' (a URL: https://h/x) joined again;
            # COMP_LINE tells 'a:b' (one word) from 'a : b'. '=' stays a word of its own.
            _uaaudit_rejoin() {
                local line=${COMP_LINE-} j w glued
                words=() cword=0
                for (( j = 0; j < ${#COMP_WORDS[@]}; j++ )); do
                    w=${COMP_WORDS[j]}
                    glued=0
                    if [[ -n ${COMP_LINE+set} && $j -gt 0 && $line != [[:blank:]]* ]]; then glued=1; fi
                    line=${line#"${line%%[![:blank:]]*}"}
                    line=${line:${#w}}
                    if [[ $glued == 1 && ( $w == :* || ${words[${#words[@]}-1]} == *: ) ]]; then
                        words[${#words[@]}-1]+=$w
                    else
                        words+=("$w")
                    fi
                    if [[ $j == "$COMP_CWORD" ]]; then cword=$(( ${#words[@]} - 1 )); fi
                done
                cur=${words[cword]}
            }

            # True when the word after $1 is its value: --out, or -qj (flags, then a valued letter last).
            _uaaudit_wants_value() {
                local k
                if [[ $1 == --* ]]; then
                    if [[ $valued == *" $1 "* ]]; then return 0; fi
                    return 1
                fi
                for (( k = 1; k < ${#1}; k++ )); do
                    if [[ $valued == *" -${1:k:1} "* ]]; then
                        if [[ $k == $(( ${#1} - 1 )) ]]; then return 0; fi
                        return 1
                    fi
                done
                return 1
            }

            _uaaudit() {
                local cur words cword colon k
                # bash-completion's helper, when loaded, is not 'set -e' safe: an 'if' shields it.
                if declare -F _get_comp_words_by_ref >/dev/null; then
                    if _get_comp_words_by_ref -n : cur words cword; then :; fi
                else
                    _uaaudit_rejoin
                fi
                COMPREPLY=()
                _uaaudit_complete
                # bash replaces only what follows the last ':' of the word: offer just that.
                if [[ $cur == *:* && ${COMP_WORDBREAKS-:} == *:* ]]; then
                    colon=${cur%"${cur##*:}"}
                    for k in "${!COMPREPLY[@]}"; do COMPREPLY[k]=${COMPREPLY[k]#"$colon"}; done
                fi
                return 0
            }

            _uaaudit_complete() {
                local prev="" cmd="" at=0 i w operands=0 ended=0
                if [[ $cword -gt 0 ]]; then prev=${words[cword-1]}; fi
                # bash splits --name=value at '=': complete the value of --name.
                if [[ $cur == "=" ]]; then
                    cur=""
                elif [[ $prev == "=" ]]; then
                    prev=${words[cword-2]}
                fi
                for (( i = 1; i < cword; i++ )); do
                    case ${words[i]} in -*) ;; *) cmd=${words[i]}; at=$i; break ;; esac
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
                # Operands before this word: not an option nor its value; '-' is one, and so is
                # every word after '--'.
                for (( i = at + 1; i < cword; i++ )); do
                    w=${words[i]}
                    if [[ $ended == 1 || $w == "-" ]]; then
                        operands=$(( operands + 1 ))
                    elif [[ $w == "--" ]]; then
                        ended=1
                    elif [[ ${words[i+1]} == "=" ]]; then
                        i=$(( i + 2 ))
                    elif [[ $w == -* ]]; then
                        if _uaaudit_wants_value "$w"; then i=$(( i + 1 )); fi
                    else
                        operands=$(( operands + 1 ))
                    fi
                done
                # -qj: the value of -j.
                if [[ $ended == 0 && $prev == -[!-]?* ]] && _uaaudit_wants_value "$prev"; then prev=-${prev: -1}; fi
                case $cmd in

            """
        for spec in CommandSpec.all {
            script += "    \(spec.name))\n"
            let valued = spec.options.filter(\.takesValue)
            if !spec.options.isEmpty {
                script += "        if [[ $ended == 0 ]]; then\n"
                if !valued.isEmpty {
                    script += "            case $prev in\n"
                    for option in valued {
                        script += "                \(names(option).joined(separator: "|"))) \(complete(option.completion)); return 0 ;;\n"
                    }
                    script += "            esac\n"
                }
                let words = spec.options.flatMap(names)
                script += "            if [[ $cur == -* ]]; then _uaaudit_words \"\(words.joined(separator: " "))\"; return 0; fi\n"
                script += "        fi\n"
            }
            let actions = spec.firstOperands
            if !actions.isEmpty {
                script += "        if [[ $operands == 0 ]]; then _uaaudit_words \"\(actions.joined(separator: " "))\"; return 0; fi\n"
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
