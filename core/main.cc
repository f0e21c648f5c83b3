#include <unistd.h>

#include <iostream>

#include "core/cli/cli.h"
#include "core/util/timings.h"

int main(int argc, char** argv) {
  extdeps::timings::start();
  auto ctx = extdeps::Context::from_process();
  ctx.set_self_exe("/proc/self/exe");
  ctx.set_stderr_is_terminal(::isatty(2) == 1);
  ctx.set_stdout_is_terminal(::isatty(1) == 1);
  std::vector<std::string> args(argv + 1, argv + argc);
  return extdeps::cli::run(ctx, args, std::cout, std::cerr);
}
