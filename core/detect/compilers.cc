#include "core/detect/compilers.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <sstream>
#include <system_error>
#include <thread>

#include "core/detect/process.h"

namespace extdeps::detect {

namespace {

bool is_executable_file(const std::string& path) {
  struct stat st {};
  return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && access(path.c_str(), X_OK) == 0;
}

bool looks_like_version(std::string_view w) {
  return !w.empty() && std::isdigit(static_cast<unsigned char>(w[0])) && w.find('.') != std::string_view::npos;
}

// The leading run of a word that belongs to a version: "12.2.0," -> "12.2.0".
std::string_view version_prefix(std::string_view w) {
  size_t n = 0;
  while (n < w.size() &&
         (std::isalnum(static_cast<unsigned char>(w[n])) || w[n] == '.' || w[n] == '-' || w[n] == '+' || w[n] == '~'))
    ++n;
  return w.substr(0, n);
}

std::vector<std::string_view> words(std::string_view line) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i]))) ++i;
    size_t j = i;
    while (j < line.size() && !std::isspace(static_cast<unsigned char>(line[j]))) ++j;
    if (j > i) out.push_back(line.substr(i, j - i));
    i = j;
  }
  return out;
}

std::string nvcc_version(std::string_view text) {
  // "Cuda compilation tools, release 13.0, V13.0.48": the V word, else the release.
  std::string release;
  std::istringstream in{std::string(text)};
  std::string line;
  while (std::getline(in, line)) {
    auto ws = words(line);
    for (size_t i = 0; i < ws.size(); ++i) {
      if (ws[i].size() > 1 && ws[i][0] == 'V' && looks_like_version(ws[i].substr(1)))
        return std::string(version_prefix(ws[i].substr(1)));
      if (ws[i] == "release" && i + 1 < ws.size()) {
        auto v = ws[i + 1];
        if (!v.empty() && v.back() == ',') v.remove_suffix(1);
        if (looks_like_version(v)) release = std::string(v);
      }
    }
  }
  return release;
}

}  // namespace

std::string parse_compiler_version(std::string_view name, std::string_view output) {
  if (name == "nvcc") return nvcc_version(output);
  // The first non-empty line, outside parentheses: "version X" when said, else the last version.
  std::istringstream in{std::string(output)};
  std::string line;
  while (std::getline(in, line) && line.find_first_not_of(" \t\r") == std::string::npos) {
  }
  auto ws = words(line);
  int depth = 0;
  std::string last;
  for (size_t i = 0; i < ws.size(); ++i) {
    auto w = ws[i];
    int opens = static_cast<int>(std::count(w.begin(), w.end(), '('));
    int closes = static_cast<int>(std::count(w.begin(), w.end(), ')'));
    bool inside = depth > 0 || opens > 0;
    depth = std::max(0, depth + opens - closes);
    if (inside) continue;
    if (w == "version" && i + 1 < ws.size() && looks_like_version(ws[i + 1]))
      return std::string(version_prefix(ws[i + 1]));
    if (looks_like_version(w)) last = std::string(version_prefix(w));
  }
  return last;
}

std::vector<Compiler> detect_compilers(const Context& ctx, int timeout_ms) {
  std::vector<std::string> dirs;
  if (auto path = ctx.env("PATH")) {
    std::string_view p = *path;
    size_t start = 0;
    while (start <= p.size()) {
      size_t colon = p.find(':', start);
      if (colon == std::string_view::npos) colon = p.size();
      // An empty entry means the current folder, which detection does not search.
      if (colon > start && p[start] == '/') dirs.emplace_back(p.substr(start, colon - start));
      start = colon + 1;
    }
  }
  std::vector<Compiler> found_ones;
  for (std::string_view name : {"cc", "c++", "gfortran", "rustc", "nvcc"}) {
    std::string found;
    for (const auto& d : dirs) {
      std::string candidate = d + "/" + std::string(name);
      if (is_executable_file(ctx.host_path(candidate))) {
        found = candidate;
        break;
      }
    }
    if (found.empty() && name == "nvcc") {
      // /usr/local/cuda first, then versioned folders, newest name first.
      std::vector<std::string> roots;
      std::error_code ec;
      for (const auto& e : std::filesystem::directory_iterator(ctx.host_path("/usr/local"), ec)) {
        auto n = e.path().filename().string();
        if (n.rfind("cuda", 0) == 0) roots.push_back(n);
      }
      std::sort(roots.begin(), roots.end(), [](const std::string& a, const std::string& b) {
        if ((a == "cuda") != (b == "cuda")) return a == "cuda";
        return a > b;
      });
      for (const auto& r : roots) {
        std::string candidate = "/usr/local/" + r + "/bin/nvcc";
        if (is_executable_file(ctx.host_path(candidate))) {
          found = candidate;
          break;
        }
      }
    }
    if (found.empty()) continue;
    Compiler c;
    c.name = std::string(name);
    c.path = found;
    found_ones.push_back(std::move(c));
  }
  // Each --version at once (each is mostly a process starting, 5 to 10 ms), in order again after.
  std::vector<char> ok(found_ones.size(), 0);
  auto ask = [&](size_t i) {
    auto ran = run_capture(ctx, {ctx.host_path(found_ones[i].path), "--version"}, timeout_ms);
    if (!ran.ok() || ran->exit_status != 0) return;
    found_ones[i].version = parse_compiler_version(found_ones[i].name, ran->out);
    ok[i] = 1;
  };
  std::vector<std::thread> threads;
  for (size_t i = 1; i < found_ones.size(); ++i) {
    try {
      threads.emplace_back(ask, i);
    } catch (const std::system_error&) {
      ask(i);  // no thread to be had (a process limit): asked here, one after another
    }
  }
  if (!found_ones.empty()) ask(0);
  for (auto& t : threads) t.join();
  std::vector<Compiler> out;
  for (size_t i = 0; i < found_ones.size(); ++i)
    if (ok[i]) out.push_back(std::move(found_ones[i]));
  return out;
}

}  // namespace extdeps::detect
