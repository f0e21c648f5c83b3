// .repo files (dnf/yum and zypper write the same INI), and the variables of their URLs.
#include <algorithm>
#include <filesystem>
#include <fstream>

#include "core/util/text.h"
#include "providers/dnf/dnf_provider.h"

namespace extdeps::dnf {

namespace fs = std::filesystem;

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

Result<void> read_repo_file(const std::string& path, std::vector<RepoConfig>& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return error_at(ExitCode::environment, path, "cannot read the file");
  std::string raw;
  int line_no = 0;
  RepoConfig* current = nullptr;
  std::string last_key;
  while (std::getline(in, raw)) {
    ++line_no;
    std::string_view line = trim(raw);
    if (line.empty() || line.front() == '#' || line.front() == ';') continue;
    const std::string place = path + ":" + std::to_string(line_no);
    if (line.front() == '[') {
      if (line.back() != ']' || line.size() < 3)
        return error_at(ExitCode::bad_input, place, "'" + shorten(line) + "' is not a section", "[REPOSITORY-ID]");
      out.push_back({std::string(line.substr(1, line.size() - 2)), {}, true, place});
      current = &out.back();
      last_key.clear();
      continue;
    }
    const auto eq = line.find('=');
    if (eq == std::string_view::npos) {
      // A continuation line of a multi-line value (baseurl lists one URL a line).
      if ((raw.front() == ' ' || raw.front() == '\t') && current && last_key == "baseurl") {
        current->baseurls.emplace_back(line);
        continue;
      }
      return error_at(ExitCode::bad_input, place, "'" + shorten(line) + "' is not key=value", "KEY=VALUE");
    }
    if (!current) return error_at(ExitCode::bad_input, place, "a key before any [repository]", "[REPOSITORY-ID] first");
    const std::string key(trim(line.substr(0, eq)));
    const std::string_view value = trim(line.substr(eq + 1));
    last_key = key;
    if (key == "baseurl") {
      // "baseurl=a b" or "a,b": several mirrors.
      std::string v(value);
      std::replace(v.begin(), v.end(), ',', ' ');
      for (std::size_t i = 0; i < v.size();) {
        while (i < v.size() && v[i] == ' ') ++i;
        const std::size_t start = i;
        while (i < v.size() && v[i] != ' ') ++i;
        if (i > start) current->baseurls.push_back(v.substr(start, i - start));
      }
    } else if (key == "enabled") {
      current->enabled = !(value == "0" || value == "false" || value == "no" || value == "False");
    }
  }
  return {};
}

}  // namespace

Result<std::vector<RepoConfig>> read_repo_files(const std::vector<std::string>& dirs) {
  std::vector<RepoConfig> out;
  for (const auto& dir : dirs) {
    std::error_code ec;
    std::vector<std::string> files;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
      if (it->path().extension() == ".repo") files.push_back(it->path().string());
    std::sort(files.begin(), files.end());
    for (const auto& f : files)
      if (auto r = read_repo_file(f, out); !r) return r.error();
  }
  return out;
}

std::string expand(std::string text, const std::string& releasever, const std::string& basearch) {
  for (const auto& [from, to] : {std::pair<std::string, std::string>{"$releasever", releasever},
                                 {"$basearch", basearch}, {"$arch", basearch}})
    for (auto at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
      text.replace(at, from.size(), to);
  return text;
}

}  // namespace extdeps::dnf
