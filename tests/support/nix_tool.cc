#include "tests/support/nix_tool.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "tests/test_support.h"

namespace extdeps::test {

namespace {

std::string shell_quoted(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

bool on_path(const std::string& tool) {
  const char* path = std::getenv("PATH");
  std::string rest = path ? path : "/usr/bin:/bin";
  size_t start = 0;
  while (start <= rest.size()) {
    size_t colon = rest.find(':', start);
    std::string dir = rest.substr(start, colon == std::string::npos ? std::string::npos : colon - start);
    if (!dir.empty() && ::access((dir + "/" + tool).c_str(), X_OK) == 0) return true;
    if (colon == std::string::npos) break;
    start = colon + 1;
  }
  return false;
}

}  // namespace

std::string NixTool::shell_env() const {
  std::string out;
  for (const auto& [k, v] : env) out += k + "=" + shell_quoted(v) + " ";
  return out;
}

std::optional<std::string> NixTool::run(const std::string& command, std::string* err) const {
  std::string err_file = dir + "/stderr.txt";
  std::string line = shell_env() + command + " 2>" + shell_quoted(err_file);
  FILE* p = popen(line.c_str(), "r");
  if (!p) return std::nullopt;
  std::string out;
  char buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  int st = pclose(p);
  if (err) *err += read_file(err_file);
  if (st == -1 || !WIFEXITED(st) || WEXITSTATUS(st) != 0) return std::nullopt;
  return out;
}

std::string nix_missing() {
  for (const char* tool : {"nix-instantiate", "nix-env", "nix-build"})
    if (!on_path(tool))
      return std::string(tool) + " is not installed (Debian's nix-bin; scripts/install-deps.sh installs it)";
  return {};
}

std::optional<NixTool> nix_tool() {
  if (!nix_missing().empty()) return std::nullopt;
  NixTool t;
  t.dir = temp_dir();
  namespace fs = std::filesystem;
  for (const char* sub : {"store", "state", "log", "conf", "home"}) fs::create_directories(fs::path(t.dir) / sub);
  std::ofstream(t.dir + "/conf/nix.conf") << "build-users-group =\nsandbox = false\nsubstituters =\n";
  t.env = {{"NIX_STORE_DIR", t.dir + "/store"}, {"NIX_STATE_DIR", t.dir + "/state"},
           {"NIX_LOG_DIR", t.dir + "/log"},     {"NIX_CONF_DIR", t.dir + "/conf"},
           {"HOME", t.dir + "/home"},           {"PATH", std::getenv("PATH") ? std::getenv("PATH") : "/usr/bin:/bin"}};
  return t;
}

}  // namespace extdeps::test
