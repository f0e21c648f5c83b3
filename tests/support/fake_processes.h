// A ProcessRunner for tests (core/util/subprocess.h): programs answer with what the test says,
// every request is recorded, and nothing is started. An answer's stdout reaches the caller as the
// request asks (lines, a file, or whole), as the real runner would deliver it.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/context/context.h"
#include "core/util/subprocess.h"

namespace extdeps::test {

class FakeProcesses : public ProcessRunner {
 public:
  using Answer = std::function<Result<ProcessResult>(const ProcessRequest&)>;

  // Requests whose argv[0] is `program` or ends with "/program" get `answer`.
  void on(const std::string& program, Answer answer) { answers_[program] = std::move(answer); }
  void on(const std::string& program, ProcessResult result) {
    on(program, [result](const ProcessRequest&) -> Result<ProcessResult> { return result; });
  }

  Result<ProcessResult> run(const ProcessRequest& request) const override;

  // Every request, in order (requests made at once, as detection's, in any order).
  const std::vector<ProcessRequest>& requests() const { return *requests_; }

  // Installs a new fake in `ctx` and returns it.
  static std::shared_ptr<FakeProcesses> install(Context& ctx) {
    auto fake = std::make_shared<FakeProcesses>();
    ctx.set_process_runner(fake);
    return fake;
  }

 private:
  std::map<std::string, Answer> answers_;
  std::shared_ptr<std::vector<ProcessRequest>> requests_ = std::make_shared<std::vector<ProcessRequest>>();
  std::shared_ptr<std::mutex> mu_ = std::make_shared<std::mutex>();
};

// A result that exited with `exit_status` after printing `out`.
inline ProcessResult printed(std::string out, int exit_status = 0) {
  ProcessResult r;
  r.out = std::move(out);
  r.exit_status = exit_status;
  return r;
}

}  // namespace extdeps::test
