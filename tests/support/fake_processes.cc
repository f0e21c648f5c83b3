#include "tests/support/fake_processes.h"

#include <fstream>

namespace extdeps::test {

Result<ProcessResult> FakeProcesses::run(const ProcessRequest& request) const {
  {
    std::lock_guard<std::mutex> lock(*mu_);  // detection runs several at once
    requests_->push_back(request);
  }
  if (request.argv.empty()) return environment_error("no command to run");
  const std::string& program = request.argv[0];
  const Answer* answer = nullptr;
  for (const auto& [name, a] : answers_) {
    if (program == name || (program.size() > name.size() && program.ends_with("/" + name))) answer = &a;
  }
  if (!answer) return environment_error("cannot start " + program + ": No such file or directory");
  auto result = (*answer)(request);
  if (!result) return result;
  if (result->out.size() > request.max_output) {
    result->out.clear();
    result->too_big = true;
    return result;
  }
  if (request.on_line) {
    std::string_view rest = result->out;
    while (!rest.empty()) {
      auto nl = rest.find('\n');
      if (!request.on_line(rest.substr(0, nl))) {
        result->stopped = true;
        break;
      }
      rest = nl == std::string_view::npos ? std::string_view() : rest.substr(nl + 1);
    }
    result->out.clear();
  } else if (!request.stdout_file.empty()) {
    std::ofstream(request.stdout_file, std::ios::binary | std::ios::trunc) << result->out;
    result->out.clear();
  }
  return result;
}

}  // namespace extdeps::test
