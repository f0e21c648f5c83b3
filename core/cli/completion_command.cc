#include "core/cli/completion_command.h"

#include <CLI/CLI.hpp>
#include <ostream>
#include <string_view>

#include "core/config/command_options.h"
#include "core/provider/descriptor.h"

namespace extdeps::cli {

namespace {

// A word the shell may offer, with the help the shells that show one (zsh, fish) show.
struct Word {
  std::string word, help;
};

// One command as the completion sees it: "" is extdeps itself, "mappings import" a subcommand.
struct Node {
  std::string path;
  std::vector<Word> subcommands;
  std::vector<Word> options;  // every spelling: "--output", "-o"
  // The options that take a value, each spelling, with what the value may be: "@files",
  // "@dirs", "@any" or the words (one per line).
  std::vector<std::pair<std::string, std::string>> values;
  std::string args;  // the positional arguments: "@files", "@dirs" or "" (none, or not paths)
};

// One line of help, short enough for a completion menu.
std::string short_help(std::string help) {
  if (auto nl = help.find('\n'); nl != std::string::npos) help.resize(nl);
  constexpr std::size_t kMax = 90;
  if (help.size() > kMax) {
    help.resize(kMax - 3);
    if (auto space = help.rfind(' '); space != std::string::npos && space > kMax / 2) help.resize(space);
    help += "...";
  }
  for (char& c : help)
    if (c == '\t' || static_cast<unsigned char>(c) < 0x20) c = ' ';
  return help;
}

// What a value named `type` ("DIR", "FILE|URL", "pip|uv") may be, when no list of values says.
std::string values_of_type(std::string_view type) {
  if (type.find("DIR") != std::string_view::npos) return "@dirs";
  for (std::string_view path : {"FILE", "PATH", "PROGRAM"})
    if (type.find(path) != std::string_view::npos) return "@files";
  // "pip|uv", "dnf|yum|zypper": the choices themselves.
  bool choices = type.find('|') != std::string_view::npos;
  for (char c : type)
    if (!(c == '|' || c == '-' || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))) choices = false;
  if (!choices) return "@any";
  std::string words(type);
  for (char& c : words)
    if (c == '|') c = '\n';
  return words;
}

const config::Command* command_at(const std::string& path) {
  static config::Command commands[static_cast<unsigned>(config::Command::count)];
  for (unsigned i = 0; i < static_cast<unsigned>(config::Command::count); ++i) {
    commands[i] = static_cast<config::Command>(i);
    if (config::command_words(commands[i]) == path) return &commands[i];
  }
  return nullptr;
}

std::string values_of(const CLI::Option& o, const std::string& name, const std::string& path) {
  if (const config::Command* c = command_at(path))
    if (const config::CommandOption* row = config::command_option(name, *c); row && row->values) {
      std::string words;
      for (const std::string& v : row->values()) words += (words.empty() ? "" : "\n") + v;
      return words;
    }
  std::string type = o.get_type_name();
  if (auto colon = type.find(':'); colon != std::string::npos) type.resize(colon);  // a validator's part
  return values_of_type(type);
}

void add_options(Node& node, const CLI::App& app, const std::string& path) {
  for (const CLI::Option* o : app.get_options()) {
    if (o->get_group().empty()) continue;  // hidden
    if (o->get_positional() && !o->nonpositional()) {
      const std::string& name = o->get_name(true);
      if (name == "dir") node.args = "@dirs";
      else if (name == "path" || name == "file") node.args = "@files";
      continue;
    }
    const bool valued = o->get_expected_min() > 0;  // a flag expects none (its type size is 1)
    const std::string help = short_help(o->get_description());
    auto add = [&](const std::string& spelling, const std::string& name) {
      for (const Word& w : node.options)
        if (w.word == spelling) return;
      node.options.push_back({spelling, help});
      if (valued) node.values.emplace_back(spelling, values_of(*o, name, path));
    };
    for (const std::string& l : o->get_lnames()) add("--" + l, l);
    for (const std::string& s : o->get_snames()) add("-" + s, o->get_lnames().empty() ? s : o->get_lnames().front());
  }
}

void walk(const CLI::App& app, const std::string& path, const CLI::App& root, std::vector<Node>& nodes) {
  Node node;
  node.path = path;
  add_options(node, app, path);
  if (&app != &root) add_options(node, root, "");  // --root falls through to every command
  std::erase_if(node.options, [&](const Word& w) { return &app != &root && w.word == "--version"; });
  const auto subcommands = app.get_subcommands([](const CLI::App* s) { return !s->get_group().empty(); });
  for (const CLI::App* s : subcommands) node.subcommands.push_back({s->get_name(), short_help(s->get_description())});
  nodes.push_back(std::move(node));
  for (const CLI::App* s : subcommands)
    walk(*s, path.empty() ? s->get_name() : path + " " + s->get_name(), root, nodes);
}

// A POSIX shell word in single quotes.
std::string sh_quote(std::string_view s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// A fish word in single quotes (fish escapes \ and ' there).
std::string fish_quote(std::string_view s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\\' || c == '\'') out += '\\';
    out += c;
  }
  return out + "'";
}

std::vector<std::string> lines_of(const std::string& s) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= s.size()) {
    auto nl = s.find('\n', start);
    if (nl == std::string::npos) nl = s.size();
    out.push_back(s.substr(start, nl - start));
    start = nl + 1;
  }
  return out;
}

// "printf '%s\t%s\n' 'w' 'help' ..." for bash and zsh; "printf '%s\t%s\n' ..." for fish too.
std::string printf_words(const std::vector<Word>& words, std::string (*quote)(std::string_view)) {
  std::string out = "printf '%s\\t%s\\n'";
  for (const Word& w : words) out += " " + quote(w.word) + " " + quote(w.help);
  return out;
}

std::string printf_lines(const std::string& lines, std::string (*quote)(std::string_view)) {
  std::string out = "printf '%s\\n'";
  for (const std::string& l : lines_of(lines)) out += " " + quote(l);
  return out;
}

// The functions bash and zsh share: what the command line offers at each command, in POSIX sh.
void write_sh_tables(const std::vector<Node>& nodes, std::ostream& out) {
  out << "# The commands under each command (its words typed after extdeps), with their help.\n"
         "_extdeps_subcommands() {\n  case $1 in\n";
  for (const Node& n : nodes)
    if (!n.subcommands.empty())
      out << "    " << sh_quote(n.path) << ") " << printf_words(n.subcommands, sh_quote) << " ;;\n";
  out << "  esac\n}\n\n# Each command's options, with their help.\n_extdeps_options() {\n  case $1 in\n";
  for (const Node& n : nodes) out << "    " << sh_quote(n.path) << ") " << printf_words(n.options, sh_quote) << " ;;\n";
  out << "  esac\n}\n\n"
         "# What the value of option $2 of command $1 may be: @files, @dirs, @any or the words, one a line;\n"
         "# nothing for an option without a value.\n_extdeps_values() {\n  case $1 in\n";
  for (const Node& n : nodes) {
    if (n.values.empty()) continue;
    out << "    " << sh_quote(n.path) << ")\n      case $2 in\n";
    for (const auto& [option, values] : n.values)
      out << "        " << sh_quote(option) << ") " << printf_lines(values, sh_quote) << " ;;\n";
    out << "      esac ;;\n";
  }
  out << "  esac\n}\n\n# What a command's arguments are: @files, @dirs or nothing.\n_extdeps_args() {\n  case $1 in\n";
  for (const Node& n : nodes)
    if (!n.args.empty()) out << "    " << sh_quote(n.path) << ") echo " << n.args << " ;;\n";
  out << "  esac\n}\n\n";
  out << R"sh(_extdeps_is_subcommand() {
  local line
  while IFS= read -r line; do
    [ "${line%%$'\t'*}" = "$2" ] && return 0
  done <<EOF
$(_extdeps_subcommands "$1")
EOF
  return 1
}

# Reads the words typed after extdeps, before the one completed: sets _extdeps_path to the command
# they name and _extdeps_opt to the option whose value comes next (empty when none does).
_extdeps_walk() {
  _extdeps_path= _extdeps_opt=
  local w
  for w in "$@"; do
    if [ -n "$_extdeps_opt" ]; then
      _extdeps_opt=
      continue
    fi
    case $w in
      -*=*) ;;
      -*) [ -n "$(_extdeps_values "$_extdeps_path" "$w")" ] && _extdeps_opt=$w ;;
      *) _extdeps_is_subcommand "$_extdeps_path" "$w" && _extdeps_path=${_extdeps_path:+$_extdeps_path }$w ;;
    esac
  done
}

# What may replace word $1 (after _extdeps_walk), one a line: "word<TAB>help", a value (after
# the "a,b," of a list), or @files / @dirs. For --opt=value, the value's.
_extdeps_list() {
  local cur=$1 opt=$_extdeps_opt pre= values v
  if [ -z "$opt" ]; then
    case $cur in -*=*) opt=${cur%%=*} cur=${cur#*=} ;; esac
  fi
  if [ -n "$opt" ]; then
    values=$(_extdeps_values "$_extdeps_path" "$opt")
    case $values in
      @files | @dirs) echo "$values" ;;
      @any | '') ;;
      *)
        case $cur in *,*) pre=${cur%,*}, ;; esac
        printf '%s\n' "$values" | while IFS= read -r v; do printf '%s%s\n' "$pre" "$v"; done ;;
    esac
    return
  fi
  case $cur in
    -*) _extdeps_options "$_extdeps_path" ;;
    *)
      _extdeps_subcommands "$_extdeps_path"
      _extdeps_args "$_extdeps_path" ;;
  esac
}
)sh";
}

void write_bash(const std::vector<Node>& nodes, std::ostream& out) {
  out << "# bash completion for extdeps, written by `extdeps completion bash` from its command line and the\n"
         "# providers built in. Load it in ~/.bashrc with\n"
         "#   source <(extdeps completion bash)\n"
         "# or save it as ~/.local/share/bash-completion/completions/extdeps.\n\n";
  write_sh_tables(nodes, out);
  out << R"sh(_extdeps() {
  local line=${COMP_LINE:0:COMP_POINT} cur= c
  local -a words cands=()
  read -ra words <<<"$line"
  if [[ $line != *[[:space:]] ]]; then
    cur=${words[${#words[@]}-1]}
    unset "words[$((${#words[@]} - 1))]"
  fi
  _extdeps_walk "${words[@]:1}"
  COMPREPLY=()
  # bash splits --opt=value at '=': the word it completes is the value.
  local word=$cur
  [[ $word == -*=* ]] && word=${word#*=}
  while IFS= read -r c; do
    case $c in
      @files) COMPREPLY+=($(compgen -f -- "$word")) ;;
      @dirs) COMPREPLY+=($(compgen -d -- "$word")) ;;
      ?*) cands+=("${c%%$'\t'*}") ;;
    esac
  done < <(_extdeps_list "$cur")
  COMPREPLY+=($(compgen -W "${cands[*]}" -- "$word"))
}
complete -o filenames -F _extdeps extdeps
)sh";
}

void write_zsh(const std::vector<Node>& nodes, std::ostream& out) {
  out << "# zsh completion for extdeps, written by `extdeps completion zsh` from its command line and the\n"
         "# providers built in. Load it in ~/.zshrc, after compinit, with\n"
         "#   source <(extdeps completion zsh)\n\n";
  write_sh_tables(nodes, out);
  out << R"sh(_extdeps() {
  local cur=${words[CURRENT]} c files= dirs=
  local -a described plain
  _extdeps_walk "${(@)words[2,CURRENT-1]}"
  [[ -z $_extdeps_opt && $cur == -*=* ]] && compset -P '*='
  while IFS= read -r c; do
    case $c in
      @files) files=1 ;;
      @dirs) dirs=1 ;;
      *$'\t'*) described+=("${${c%%$'\t'*}//:/\\:}:${c#*$'\t'}") ;;
      ?*) plain+=("$c") ;;
    esac
  done < <(_extdeps_list "$cur")
  (( ${#described} )) && _describe -t extdeps extdeps described
  (( ${#plain} )) && compadd -a plain
  [[ -n $files ]] && _files
  [[ -n $dirs ]] && _files -/
  return 0
}
compdef _extdeps extdeps
)sh";
}

void write_fish(const std::vector<Node>& nodes, std::ostream& out) {
  out << "# fish completion for extdeps, written by `extdeps completion fish` from its command line and the\n"
         "# providers built in. Save it as ~/.config/fish/completions/extdeps.fish, or run\n"
         "#   extdeps completion fish | source\n\n";
  out << "function __extdeps_subcommands\n    switch \"$argv[1]\"\n";
  for (const Node& n : nodes)
    if (!n.subcommands.empty())
      out << "        case " << fish_quote(n.path) << "\n            " << printf_words(n.subcommands, fish_quote)
          << "\n";
  out << "    end\nend\n\nfunction __extdeps_options\n    switch \"$argv[1]\"\n";
  for (const Node& n : nodes)
    out << "        case " << fish_quote(n.path) << "\n            " << printf_words(n.options, fish_quote) << "\n";
  out << "    end\nend\n\n# @files, @dirs, @any or the words, one a line; nothing for an option without a value.\n"
         "function __extdeps_values\n    switch \"$argv[1]\"\n";
  for (const Node& n : nodes) {
    if (n.values.empty()) continue;
    out << "        case " << fish_quote(n.path) << "\n            switch \"$argv[2]\"\n";
    for (const auto& [option, values] : n.values)
      out << "                case " << fish_quote(option) << "\n                    "
          << printf_lines(values, fish_quote) << "\n";
    out << "            end\n";
  }
  out << "    end\nend\n\nfunction __extdeps_args\n    switch \"$argv[1]\"\n";
  for (const Node& n : nodes)
    if (!n.args.empty()) out << "        case " << fish_quote(n.path) << "\n            echo " << n.args << "\n";
  out << "    end\nend\n\n";
  out << R"sh(function __extdeps_is_subcommand
    for line in (__extdeps_subcommands $argv[1])
        test (string split -m1 \t -- $line)[1] = $argv[2]; and return 0
    end
    return 1
end

function __extdeps_complete
    set -l words (commandline -opc)
    set -l cur (commandline -ct)
    set -e words[1]
    set -l path ''
    set -l opt ''
    for w in $words
        if test -n "$opt"
            set opt ''
            continue
        end
        switch $w
            case '-*=*'
            case '-*'
                set -l v (__extdeps_values "$path" $w)
                test (count $v) -gt 0; and set opt $w
            case '*'
                __extdeps_is_subcommand "$path" $w; and set path (string trim -- "$path $w")
        end
    end
    # fish replaces the whole word: a value keeps its "--opt=" and "a,b," in front.
    set -l pre ''
    if test -z "$opt"; and string match -q -- '-*=*' $cur
        set -l parts (string split -m1 = -- $cur)
        set opt $parts[1]
        set pre "$opt="
        set cur $parts[2]
    end
    if test -n "$opt"
        set -l values (__extdeps_values "$path" $opt)
        switch "$values[1]"
            case @files
                for p in (__fish_complete_path $cur)
                    echo "$pre$p"
                end
            case @dirs
                for p in (__fish_complete_directories $cur)
                    echo "$pre$p"
                end
            case @any ''
            case '*'
                string match -q -- '*,*' $cur; and set pre "$pre"(string replace -r -- ',[^,]*$' ',' $cur)
                for v in $values
                    echo "$pre$v"
                end
        end
        return
    end
    if string match -q -- '-*' $cur
        __extdeps_options "$path"
        return
    end
    __extdeps_subcommands "$path"
    set -l args (__extdeps_args "$path")
    switch "$args"
        case @files
            __fish_complete_path $cur
        case @dirs
            __fish_complete_directories $cur
    end
end

complete -c extdeps -f -a '(__extdeps_complete)'
)sh";
}

}  // namespace

const std::vector<std::string>& completion_shells() {
  static const std::vector<std::string> shells{"bash", "zsh", "fish"};
  return shells;
}

int cmd_completion(const CLI::App& app, const std::string& shell, std::ostream& out) {
  std::vector<Node> nodes;
  walk(app, "", app, nodes);
  if (shell == "bash") write_bash(nodes, out);
  else if (shell == "zsh") write_zsh(nodes, out);
  else if (shell == "fish") write_fish(nodes, out);
  else return 2;  // the CLI checked the name
  return 0;
}

}  // namespace extdeps::cli
