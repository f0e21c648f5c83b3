#include "core/context/context.h"
#include "core/util/printable.h"
#include "core/util/subprocess.h"
#include "core/util/text.h"

#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <iostream>

namespace extdeps {

namespace {

std::string default_cache_dir(const Context::EnvLookup& env) {
  if (auto xdg = env("XDG_CACHE_HOME"); xdg && !xdg->empty()) return *xdg + "/extdeps";
  if (auto home = env("HOME"); home && !home->empty()) return *home + "/.cache/extdeps";
  return {};
}

int run_real_command(const std::vector<std::string>& argv) {
  if (argv.empty()) return 127;
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = fork();
  if (pid < 0) return 127;
  if (pid == 0) {
    execvp(args[0], args.data());
    _exit(127);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return 127;
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

Context::Uname real_uname() {
  struct utsname u {};
  if (::uname(&u) != 0) return {};
  return {u.sysname, u.release, u.version, u.machine};
}

}  // namespace

const ProcessRunner& Context::processes() const { return processes_ ? *processes_ : *system_process_runner(); }

Context Context::from_process() {
  Context c;
  c.env_ = [](std::string_view name) -> std::optional<std::string> {
    const char* v = std::getenv(std::string(name).c_str());
    if (!v) return std::nullopt;
    return std::string(v);
  };
  c.clock_ = [] { return std::chrono::system_clock::now(); };
  c.sink_ = [](std::string_view m) { std::cerr << m << '\n'; };
  c.cache_dir_ = default_cache_dir(c.env_);
  c.runner_ = run_real_command;
  c.processes_ = system_process_runner();
  // Questions are asked only on a terminal: piped or closed stdin is "no one to ask".
  c.input_ = isatty(STDIN_FILENO) ? &std::cin : nullptr;
  c.is_root_ = geteuid() == 0;
  c.uname_ = real_uname();
  return c;
}

Context Context::for_test(std::string root, std::map<std::string, std::string> env) {
  Context c;
  c.root_ = root.empty() ? "/" : std::move(root);
  c.env_ = [env = std::move(env)](std::string_view name) -> std::optional<std::string> {
    auto it = env.find(std::string(name));
    if (it == env.end()) return std::nullopt;
    return it->second;
  };
  c.clock_ = [] { return std::chrono::system_clock::now(); };
  c.sink_ = nullptr;
  c.runner_ = [](const std::vector<std::string>&) { return 127; };
  c.processes_ = system_process_runner();
  c.uname_ = real_uname();  // this machine's, as before; a test that needs another sets it
  return c;
}

std::string Context::host_path(std::string_view absolute) const {
  if (root_ == "/" || root_.empty()) return std::string(absolute);
  std::string out = root_;
  if (!out.empty() && out.back() == '/') out.pop_back();
  if (absolute.empty() || absolute.front() != '/') out += '/';
  out += absolute;
  return out;
}

void Context::warn(std::string_view message) const {
  std::string text(message);
  if (std::find(warnings_->begin(), warnings_->end(), text) != warnings_->end()) return;
  warnings_->push_back(text);
  if (sink_) sink_("warning: " + printable_text(text));
}

}  // namespace extdeps
