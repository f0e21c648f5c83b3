#include "core/detect/process.h"

#include <sys/stat.h>
#include <unistd.h>

#include <limits>

namespace extdeps::detect {

std::string find_on_path(const Context& ctx, std::string_view tool) {
  std::string path = ctx.env("PATH").value_or("");
  std::string_view rest = path;
  while (true) {
    size_t colon = rest.find(':');
    std::string_view dir = rest.substr(0, colon);
    if (!dir.empty()) {
      std::string file = std::string(dir) + "/" + std::string(tool);
      struct stat st {};
      if (::stat(file.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(file.c_str(), X_OK) == 0) return file;
    }
    if (colon == std::string_view::npos) return {};
    rest.remove_prefix(colon + 1);
  }
}

namespace {

// "/opt/slowtool did not finish within 1500 ms": the tool is the place, in the words people know.
Error tool_error(const std::string& tool, const std::string& what) {
  Error e = environment_error(tool + " " + what);
  e.place = tool;
  e.what = what;
  return e;
}

}  // namespace

Result<ProcessResult> run_capture(const Context& ctx, std::vector<std::string> argv, int timeout_ms,
                                  std::size_t max_output) {
  if (argv.empty()) return error_at(ExitCode::environment, "", "no command to run");
  ProcessRequest request;
  request.argv = std::move(argv);
  request.timeout_ms = timeout_ms;
  request.max_output = max_output;
  auto ran = ctx.processes().run(request);
  if (!ran) {
    // "cannot run TOOL: cannot start TOOL: No such file or directory": the runner's error, its
    // parts kept, with the tool as its place.
    Error e = ran.error();
    e.code = ExitCode::environment;
    if (e.what.empty()) e.what = e.message;
    if (e.place.empty()) e.place = request.argv[0];
    e.message = "cannot run " + request.argv[0] + ": " + e.message;
    return e;
  }
  if (ran->timed_out) return tool_error(request.argv[0], "did not finish within " + std::to_string(timeout_ms) + " ms");
  if (ran->too_big) return tool_error(request.argv[0], "printed more than " + std::to_string(max_output) + " bytes");
  return ran;
}

Result<ProcessResult> run_to_file(const Context& ctx, std::vector<std::string> argv, std::vector<std::string> env,
                                  const std::string& out_path, int timeout_ms) {
  if (argv.empty()) return error_at(ExitCode::environment, "", "no command to run");
  ProcessRequest request;
  request.argv = std::move(argv);
  request.env = std::move(env);
  request.timeout_ms = timeout_ms;
  request.max_output = std::numeric_limits<std::size_t>::max();
  request.stdout_file = out_path;
  auto ran = ctx.processes().run(request);
  if (!ran) return ran.error();
  if (ran->timed_out)
    return tool_error(request.argv[0], "did not finish within " + std::to_string(timeout_ms / 1000) + " s");
  return ran;
}

}  // namespace extdeps::detect
