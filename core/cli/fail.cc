#include "core/cli/fail.h"

#include <ostream>

#include "core/json/document.h"
#include "core/util/printable.h"

namespace extdeps::cli {

int fail(std::ostream& err, const Error& e, std::ostream* json_out) {
  err << "error: " << printable_text(e.message) << '\n';
  if (json_out) {
    auto text = [](const std::string& s) { return s.empty() ? nlohmann::json(nullptr) : nlohmann::json(s); };
    const char* kind = e.code == ExitCode::unsatisfied   ? "unsatisfied"
                       : e.code == ExitCode::environment ? "environment"
                                                         : "bad-input";
    nlohmann::json j{{"code", static_cast<int>(e.code)},
                     {"kind", kind},
                     {"message", e.message},
                     {"place", text(e.place)},
                     {"what", text(e.what)},
                     {"expected", text(e.expected)},
                     {"hint", text(e.hint)},
                     {"from", text(e.from)}};
    *json_out << extdeps::json::dump(nlohmann::json{{"error", j}}, 2) << '\n';
  }
  return static_cast<int>(e.code);
}

}  // namespace extdeps::cli
