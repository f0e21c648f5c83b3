// pacman.conf: the [options] the provider uses and the repositories, in order.
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/util/regular_file.h"
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

namespace {

// A mirrorlist's (or pacman.conf's) "Server = URL" lines, in order. Includes nest at most 4
// deep and, over one pacman.conf, at most kMaxIncludeReads files are read and kMaxServers
// servers kept per repository: a self-including mirrorlist was bounded in depth but not in
// fan-out (40^4 reads, issue 31).
constexpr int kMaxIncludeReads = 256;
constexpr std::size_t kMaxServers = 1000;
constexpr std::size_t kMaxMirrorlistBytes = 1 << 20;
Result<void> read_servers(const std::string& path, const std::string& root, int depth, int& reads,
                          std::vector<std::string>& out);

}  // namespace

Result<Config> read_config(const std::string& path, const std::string& root) {
  Config c;
  int reads = 0;
  // Under the root: a FIFO or a device is an error, never a wait (docs/limits.md).
  auto text = read_regular_file(path, std::size_t{1} << 20, Links::follow, ExitCode::bad_input);
  if (!text.ok()) {
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) return c;
    return text.error();
  }
  std::istringstream in(*text);
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
      if (section != "options") c.repos.push_back({section, {}});
      continue;
    }
    if (section.empty())
      return error_at(ExitCode::bad_input, place, "'" + shorten(line) + "' is outside a section",
                      "[options] or a [repository] before it");
    const auto eq = line.find('=');
    const std::string_view key = trim(line.substr(0, eq));
    const std::string_view value = eq == std::string_view::npos ? std::string_view() : trim(line.substr(eq + 1));
    if (section != "options") {
      if (key == "Server" && !value.empty()) c.repos.back().servers.emplace_back(value);
      if (key == "Include" && !value.empty()) {
        std::string file = (root == "/" ? "" : root) + std::string(value);
        if (auto r = read_servers(file, root, 0, reads, c.repos.back().servers); !r)
          return error_at(ExitCode::bad_input, place, "Include = " + shorten(value) + ": " + r.error().what, "",
                          "pacman refuses this pacman.conf too");
      }
      continue;  // SigLevel, Usage: how pacman checks and uses it, not what is read
    }
    if (key == "DBPath" && !value.empty()) c.dbpath = std::string(value);
    if (key == "Architecture" && !value.empty()) {
      // "Architecture = x86_64 x86_64_v3": the first is the machine's own.
      const std::string_view first = value.substr(0, value.find_first_of(" \t"));
      c.architecture = first == "auto" ? std::string() : std::string(first);
    }
  }
  return c;
}

std::string db_url(const std::string& server, const std::string& repo, const std::string& arch) {
  std::string url = server;
  for (const auto& [from, to] : {std::pair<std::string, std::string>{"$repo", repo}, {"$arch", arch}})
    for (auto at = url.find(from); at != std::string::npos; at = url.find(from, at + to.size()))
      url.replace(at, from.size(), to);
  while (!url.empty() && url.back() == '/') url.pop_back();
  return url + "/" + repo + ".db";
}

namespace {

// A nested Include names a path on the machine pacman.conf is for: under `root` too.
Result<void> read_servers(const std::string& path, const std::string& root, int depth, int& reads,
                          std::vector<std::string>& out) {
  if (++reads > kMaxIncludeReads)
    return error_at(
        ExitCode::bad_input, path,
        "more than " + std::to_string(kMaxIncludeReads) + " mirrorlist files read through Include (docs/limits.md)");
  auto text = read_regular_file(path, kMaxMirrorlistBytes, Links::follow, ExitCode::bad_input);
  if (!text) return error_at(ExitCode::bad_input, path, "cannot read the file (" + text.error().what + ")");
  std::istringstream in(std::move(text).value());
  std::string raw;
  while (std::getline(in, raw)) {
    std::string_view line = raw;
    if (auto hash = line.find('#'); hash != std::string_view::npos) line = line.substr(0, hash);
    line = trim(line);
    const auto eq = line.find('=');
    if (eq == std::string_view::npos) continue;
    const std::string_view key = trim(line.substr(0, eq)), value = trim(line.substr(eq + 1));
    if (key == "Server" && !value.empty() && out.size() < kMaxServers) out.emplace_back(value);
    if (key == "Include" && !value.empty() && depth < 4)
      if (auto r = read_servers((root == "/" ? "" : root) + std::string(value), root, depth + 1, reads, out); !r)
        return r;
  }
  return {};
}

}  // namespace

}  // namespace extdeps::pacman
