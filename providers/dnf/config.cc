// .repo files (dnf/yum and zypper write the same INI), and the variables of their URLs.
#include <algorithm>
#include <filesystem>
#include <fstream>

#include <fnmatch.h>

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

// "a*, b c": globs split on commas and blanks, as dnf splits list options.
std::vector<std::string> globs(std::string_view value) {
  std::vector<std::string> out;
  std::string v(value);
  std::replace(v.begin(), v.end(), ',', ' ');
  std::replace(v.begin(), v.end(), '\t', ' ');
  for (std::size_t i = 0; i < v.size();) {
    while (i < v.size() && v[i] == ' ') ++i;
    const std::size_t start = i;
    while (i < v.size() && v[i] != ' ') ++i;
    if (i > start) out.push_back(v.substr(start, i - start));
  }
  return out;
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
      RepoConfig repo;
      repo.id = std::string(line.substr(1, line.size() - 2));
      repo.origin = place;
      out.push_back(std::move(repo));
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
    } else if (key == "metalink") {
      current->metalink = std::string(value);
    } else if (key == "mirrorlist") {
      current->mirrorlist = std::string(value);
    } else if (key == "excludepkgs" || key == "exclude") {
      for (auto& g : globs(value)) current->exclude.push_back(std::move(g));
    } else if (key == "includepkgs") {
      for (auto& g : globs(value)) current->include.push_back(std::move(g));
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

Result<MainConfig> read_dnf_conf(const std::string& path) {
  MainConfig out;
  std::ifstream in(path, std::ios::binary);
  if (!in) return out;
  std::string raw, section;
  int line_no = 0;
  while (std::getline(in, raw)) {
    ++line_no;
    std::string_view line = trim(raw);
    if (line.empty() || line.front() == '#' || line.front() == ';') continue;
    if (line.front() == '[') {
      if (line.back() != ']')
        return error_at(ExitCode::bad_input, path + ":" + std::to_string(line_no),
                        "'" + shorten(line) + "' is not a section", "[main]");
      section = std::string(line.substr(1, line.size() - 2));
      continue;
    }
    const auto eq = line.find('=');
    if (eq == std::string_view::npos || section != "main") continue;
    const std::string key(trim(line.substr(0, eq)));
    if (key == "excludepkgs" || key == "exclude")
      for (auto& g : globs(trim(line.substr(eq + 1)))) out.exclude.push_back(std::move(g));
  }
  return out;
}

bool excluded(std::string_view name, const std::vector<std::string>& exclude, const std::vector<std::string>& include) {
  const std::string n(name);
  for (const auto& g : exclude)
    if (::fnmatch(g.c_str(), n.c_str(), 0) == 0) return true;
  if (include.empty()) return false;
  for (const auto& g : include)
    if (::fnmatch(g.c_str(), n.c_str(), 0) == 0) return false;
  return true;
}

std::vector<std::string> mirrorlist_urls(std::string_view text) {
  std::vector<std::string> out;
  while (!text.empty()) {
    auto nl = text.find('\n');
    std::string_view line = trim(text.substr(0, nl));
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
    if (line.empty() || line.front() == '#') continue;
    if (line.starts_with("http://") || line.starts_with("https://") || line.starts_with("file://"))
      out.emplace_back(line);
  }
  return out;
}

std::string expand(std::string text, const std::string& releasever, const std::string& basearch) {
  for (const auto& [from, to] :
       {std::pair<std::string, std::string>{"$releasever", releasever}, {"$basearch", basearch}, {"$arch", basearch}})
    for (auto at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
      text.replace(at, from.size(), to);
  return text;
}

}  // namespace extdeps::dnf
