// `extdeps manual`: the manual page (roff, for man(1)) written from the command line itself, as
// `extdeps completion` is: every command with its options and their help (core's table,
// core/config/command_options.cc, and the providers' options as the CLI has them), the
// providers this build has, every environment variable (config::variables), the exit codes and
// the files. The build writes it to extdeps.1 and `cmake --install` puts it in man1/.
#pragma once

#include <iosfwd>

namespace CLI {
class App;
}

namespace extdeps::cli {

// Writes the page describing `app`, built with every command's options. Returns the exit code.
int cmd_manual(const CLI::App& app, std::ostream& out);

}  // namespace extdeps::cli
