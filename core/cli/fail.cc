#include "core/cli/fail.h"

#include <ostream>

#include "core/json/document.h"
#include "core/util/printable.h"

namespace extdeps::cli {

namespace {

Style current;

constexpr std::string_view kRed = "\x1b[1;31m", kYellow = "\x1b[1;33m", kReset = "\x1b[0m";

}  // namespace

void set_style(Style s) { current = s; }
const Style& style() { return current; }

int fail(std::ostream& err, const Error& e, std::ostream* json_out) {
  // Several errors found in one pass (two bad ranges in one file) come as lines of one message,
  // each after the first written "error: ...": one line each here, never a "\x0a" between.
  std::string_view rest = e.message;
  for (bool first = true; first || !rest.empty(); first = false) {
    const auto nl = rest.find('\n');
    std::string_view line = rest.substr(0, nl);
    rest = nl == std::string_view::npos ? std::string_view{} : rest.substr(nl + 1);
    if (!first && line.starts_with("error: ")) line.remove_prefix(7);
    if (current.colour) err << kRed << "error:" << kReset << ' ' << printable_text(line) << '\n';
    else err << "error: " << printable_text(line) << '\n';
  }
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

void warn(std::ostream& err, std::string_view text) {
  if (current.quiet) return;
  err << coloured_warning("warning: " + printable_text(text)) << '\n';
}

std::string coloured_warning(std::string_view line) {
  constexpr std::string_view prefix = "warning:";
  if (!current.colour || !line.starts_with(prefix)) return std::string(line);
  return std::string(kYellow) + std::string(prefix) + std::string(kReset) + std::string(line.substr(prefix.size()));
}

}  // namespace extdeps::cli
