// `extdeps completion bash|zsh|fish`: a completion script for the shell, written from the command
// line itself (the commands, core/config/command_options.cc's table and the providers' options
// as the CLI has them), so it offers exactly what this build and its plugins accept: each
// command's subcommands and options with their help, the values of an option whose values are
// a known set (--format, --manager, --category, --scheme, a provider's "pip|uv"), files or
// folders where an option or argument takes a path. docs/cli.md says how to load it.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace extdeps::cli {

// The shells a script is written for: "bash", "zsh", "fish".
const std::vector<std::string>& completion_shells();

// Writes the script for `shell` (one of completion_shells()) describing `app`, built with every
// command's options. Returns the exit code.
int cmd_completion(const CLI::App& app, const std::string& shell, std::ostream& out);

}  // namespace extdeps::cli
