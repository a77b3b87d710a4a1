extension Completion {
  // MARK: - bash

  /// bash: `_unterm` finds the command among the words, then completes an option's value, an
  /// option, or an argument. Needs bash's extglob for the file patterns (set while completing).
  static var bash: String {
    var out = """
      # bash completion for unterm, \(header).
      # Load it with: source <(unterm completion bash)

      _unterm_files() {
        # $1: extensions as an extglob alternation (empty: any file); $2: 1 to offer folders too.
        local IFS=$'\\n' restore
        restore=$(shopt -p extglob)
        shopt -s extglob
        if [[ -z $1 ]]; then
          COMPREPLY+=($(compgen -f -- "$cur"))
        else
          COMPREPLY+=($(compgen -f -X "!*.@($1)" -- "$cur") $(compgen -d -- "$cur"))
        fi
        eval "$restore"
        compopt -o filenames 2>/dev/null
      }

      _unterm() {
        local cur prev cmd i
        cur=${COMP_WORDS[COMP_CWORD]}
        prev=${COMP_WORDS[COMP_CWORD-1]}
        cmd=""
        for ((i = 1; i < COMP_CWORD; i++)); do
          case ${COMP_WORDS[i]} in
            \(commands.map(\.rawValue).joined(separator: "|"))) cmd=${COMP_WORDS[i]}; break ;;
          esac
        done
        COMPREPLY=()
        case "$cmd $prev" in

      """
    for command in UNTermCommand.allCases {
      let name = command == .interactive ? "" : command.rawValue
      for option in options(of: command) where option.takesValue {
        let patterns = option.names.map { quoted("\(name) \($0)") }.joined(separator: "|")
        out += "    \(patterns)) \(bashValue(option.value)); return ;;\n"
      }
    }
    out += """
        esac
        if [[ $cur == -* ]]; then
          case $cmd in

      """
    for command in UNTermCommand.allCases {
      let names = options(of: command).flatMap(\.names).joined(separator: " ")
      out += "      \(command == .interactive ? "''" : command.rawValue)) "
      out += "COMPREPLY=($(compgen -W \(quoted(names)) -- \"$cur\")) ;;\n"
    }
    out += """
          esac
          return
        fi
        case $cmd in

      """
    for command in commands {
      out += "    \(command.rawValue)) \(bashValue(command.argumentCompletion)) ;;\n"
    }
    out += """
        *)
          COMPREPLY=($(compgen -W \(quoted(commands.map(\.rawValue).joined(separator: " "))) -- "$cur"))
          \(bashValue(UNTermCommand.interactive.argumentCompletion))
          ;;
        esac
      }
      complete -F _unterm unterm

      """
    return out
  }

  private static func bashValue(_ completion: ValueCompletion) -> String {
    switch completion {
    case .none: return ":"
    case .words(let words): return "COMPREPLY=($(compgen -W \(quoted(words.joined(separator: " "))) -- \"$cur\"))"
    case .lintCodes:
      return "COMPREPLY=($(compgen -W \(quoted(words(completion)?.joined(separator: " ") ?? "")) -- \"$cur\"))"
    case .files(let extensions, _): return "_unterm_files \(quoted(extensions.joined(separator: "|")))"
    case .directories: return "COMPREPLY=($(compgen -d -- \"$cur\")); compopt -o filenames 2>/dev/null"
    case .themes:
      return
        "COMPREPLY=($(compgen -W \(quoted(themeNames.joined(separator: " "))) -- \"$cur\")); _unterm_files 'json'"
    }
  }

  // MARK: - zsh

  /// zsh: a `#compdef` function in the same shape, with `_files` for the file patterns and
  /// `_describe` for options, so the menu shows what each does.
  static var zsh: String {
    var out = """
      #compdef unterm
      # zsh completion for unterm, \(header).
      # Put it on $fpath as _unterm, or load it now with: source <(unterm completion zsh)

      _unterm() {
        local cmd="" word prev=${words[CURRENT-1]} cur=${words[CURRENT]}
        local -a options
        for word in ${words[2,CURRENT-1]}; do
          case $word in
            \(commands.map(\.rawValue).joined(separator: "|"))) cmd=$word; break ;;
          esac
        done
        case "$cmd $prev" in

      """
    for command in UNTermCommand.allCases {
      let name = command == .interactive ? "" : command.rawValue
      for option in options(of: command) where option.takesValue {
        let patterns = option.names.map { quoted("\(name) \($0)") }.joined(separator: "|")
        out += "    \(patterns)) \(zshValue(option.value)); return ;;\n"
      }
    }
    out += """
        esac
        if [[ $cur == -* ]]; then
          case $cmd in

      """
    for command in UNTermCommand.allCases {
      let described = options(of: command).flatMap { option in
        option.names.map { quoted("\($0.replacingOccurrences(of: ":", with: "\\:")):\(short(option.help))") }
      }
      out +=
        "      \(command == .interactive ? "''" : command.rawValue)) options=(\(described.joined(separator: " "))) ;;\n"
    }
    out += """
          esac
          _describe -t options option options
          return
        fi
        case $cmd in

      """
    for command in commands {
      out += "    \(command.rawValue)) \(zshValue(command.argumentCompletion)) ;;\n"
    }
    let described = commands.map { quoted("\($0.rawValue):\(short($0.summary))") }.joined(separator: " ")
    out += """
        *)
          local -a subcommands
          subcommands=(\(described))
          _describe -t commands command subcommands
          \(zshValue(UNTermCommand.interactive.argumentCompletion))
          ;;
        esac
      }

      if [[ $zsh_eval_context[-1] == loadautofunc ]]; then
        _unterm "$@"
      else
        compdef _unterm unterm
      fi

      """
    return out
  }

  private static func zshValue(_ completion: ValueCompletion) -> String {
    switch completion {
    case .none: return ":"
    case .words, .lintCodes: return "compadd -- \(words(completion)?.map(quoted).joined(separator: " ") ?? "")"
    case .files(let extensions, let folders):
      if extensions.isEmpty { return "_files" }
      let glob = extensions.count == 1 ? "*.\(extensions[0])" : "*.(\(extensions.joined(separator: "|")))"
      return "_files -g \(quoted(glob))" + (folders ? "; _files -/" : "")
    case .directories: return "_files -/"
    case .themes: return "compadd -- \(themeNames.map(quoted).joined(separator: " ")); _files -g '*.json'"
    }
  }

  // MARK: - fish

  /// fish: one `complete` line an option and command, conditioned on the command typed.
  static var fish: String {
    let names = commands.map(\.rawValue).joined(separator: " ")
    var out = """
      # fish completion for unterm, \(header).
      # Put it in ~/.config/fish/completions/unterm.fish, or load it now with: unterm completion fish | source

      complete -c unterm -f

      """
    for command in commands {
      out +=
        "complete -c unterm -n 'not __fish_seen_subcommand_from \(names)' -a \(command.rawValue) -d \(quoted(short(command.summary)))\n"
    }
    for command in UNTermCommand.allCases {
      let condition =
        command == .interactive
        ? "not __fish_seen_subcommand_from \(names)" : "__fish_seen_subcommand_from \(command.rawValue)"
      for option in options(of: command) {
        var line = "complete -c unterm -n \(quoted(condition))"
        for name in option.names {
          line += name.hasPrefix("--") ? " -l \(name.dropFirst(2))" : " -s \(name.dropFirst(1))"
        }
        if option.takesValue { line += fishValue(option.value) }
        line += " -d \(quoted(short(option.help)))"
        out += line + "\n"
      }
      out += "complete -c unterm -n \(quoted(condition))\(fishArgument(command.argumentCompletion))\n"
    }
    return out
  }

  private static func fishValue(_ completion: ValueCompletion) -> String {
    switch completion {
    case .none: return " -x"
    case .words, .lintCodes: return " -x -a \(quoted(words(completion)?.joined(separator: " ") ?? ""))"
    case .files(let extensions, _):
      if extensions.isEmpty { return " -r -F" }
      return " -r -a \(quoted("(__fish_complete_suffix \(extensions.map { ".\($0)" }.joined(separator: " ")))"))"
    case .directories: return " -x -a '(__fish_complete_directories)'"
    case .themes: return " -r -a \(quoted(themeNames.joined(separator: " ") + " (__fish_complete_suffix .json)"))"
    }
  }

  private static func fishArgument(_ completion: ValueCompletion) -> String {
    switch completion {
    case .none: return ""
    case .words, .lintCodes: return " -a \(quoted(words(completion)?.joined(separator: " ") ?? ""))"
    case .files(let extensions, _):
      if extensions.isEmpty { return " -F" }
      return " -a \(quoted("(__fish_complete_suffix \(extensions.map { ".\($0)" }.joined(separator: " ")))"))"
    case .directories: return " -a '(__fish_complete_directories)'"
    case .themes: return " -a \(quoted(themeNames.joined(separator: " ")))"
    }
  }
}
