#include "core/cli/debug_command.h"
#include "core/cli/fail.h"

#include <fstream>
#include <ostream>
#include <sstream>

#include "core/json/document.h"
#include "core/solve/solve.h"
#include "core/util/printable.h"
#include "core/util/regular_file.h"

namespace extdeps::cli {

namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) out.push_back(line);
  return out;
}

}  // namespace

int cmd_debug_replay(const std::string& dir, bool json, std::ostream& out, std::ostream& err) {
  auto replay = solve::replay_testcase(dir);
  if (!replay) return fail(err, replay.error(), json ? &out : nullptr);
  // What the run was (request.json), when it is there.
  nlohmann::json request;
  {
    // The folder is anyone's: a regular file, not a link, bounded.
    auto text = read_regular_file(dir + "/request.json", std::size_t{64} << 20, Links::refuse);
    if (!text.ok() || text->empty() || extdeps::json::parse_document(*text, request)) request = nullptr;
  }
  const auto recorded = lines_of(replay->recorded), now = lines_of(replay->now);
  if (json) {
    nlohmann::json j{{"testcase", dir + "/testcase.t"},
                     {"jobs", replay->jobs},
                     {"problems", replay->problems},
                     {"same", replay->same()},
                     {"recorded", recorded},
                     {"now", now},
                     {"request", request}};
    out << extdeps::json::dump(j, 2) << '\n';
    return replay->same() ? 0 : 1;
  }
  out << "testcase: " << dir << "/testcase.t";
  if (request.is_object()) {
    auto decl = extdeps::json::string_at(request, "declaration").value_or("?");
    auto version = extdeps::json::string_at(request, "extdeps_version").value_or("?");
    std::string host;
    if (auto h = request.find("host"); h != request.end() && h->is_object())
      if (auto os = h->find("os"); os != h->end() && os->is_object())
        host = extdeps::json::string_at(*os, "pretty_name").value_or("");
    out << " (" << printable_text(decl) << (host.empty() ? "" : " on " + printable_text(host)) << ", extdeps "
        << printable_text(version) << ")";
  }
  out << '\n' << replay->jobs << " jobs, " << replay->problems << " problems; the solver's result:\n";
  for (const auto& l : now) out << "  " << printable_text(l) << '\n';
  if (replay->same()) {
    out << "the same as recorded: the outcome is reproduced\n";
    return 0;
  }
  out << "not the same as recorded; recorded:\n";
  for (const auto& l : recorded) out << "  " << printable_text(l) << '\n';
  return 1;
}

}  // namespace extdeps::cli
