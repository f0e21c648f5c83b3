// pacman.conf: the [options] the provider uses and the repositories, in order.
#include <fstream>

#include "core/util/text.h"
#include "providers/pacman/pacman_provider.h"

namespace extdeps::pacman {

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

}  // namespace

Result<Config> read_config(const std::string& path) {
  Config c;
  std::ifstream in(path, std::ios::binary);
  if (!in) return c;
  c.found = true;
  std::string section;
  std::string raw;
  int line_no = 0;
  while (std::getline(in, raw)) {
    ++line_no;
    std::string_view line = raw;
    if (auto hash = line.find('#'); hash != std::string_view::npos) line = line.substr(0, hash);
    line = trim(line);
    if (line.empty()) continue;
    const std::string place = path + ":" + std::to_string(line_no);
    if (line.front() == '[') {
      if (line.back() != ']' || line.size() < 3)
        return error_at(ExitCode::bad_input, place, "'" + shorten(line) + "' is not a section", "[NAME]");
      section = std::string(line.substr(1, line.size() - 2));
      if (section != "options") c.repos.push_back(section);
      continue;
    }
    if (section.empty())
      return error_at(ExitCode::bad_input, place, "'" + shorten(line) + "' is outside a section",
                      "[options] or a [repository] before it");
    const auto eq = line.find('=');
    const std::string_view key = trim(line.substr(0, eq));
    const std::string_view value = eq == std::string_view::npos ? std::string_view() : trim(line.substr(eq + 1));
    if (section != "options") continue;  // Server, Include, SigLevel: what fetches, not what is read
    if (key == "DBPath" && !value.empty()) c.dbpath = std::string(value);
    if (key == "Architecture" && !value.empty()) {
      // "Architecture = x86_64 x86_64_v3": the first is the machine's own.
      const std::string_view first = value.substr(0, value.find_first_of(" \t"));
      c.architecture = first == "auto" ? std::string() : std::string(first);
    }
  }
  return c;
}

}  // namespace extdeps::pacman
