// The explicit context every operation receives: where the file system root is, how environment
// variables are read, where the cache lives, the clock, and where warnings go. Nothing in the
// library reads global state; tests build a Context over fixture trees.
#pragma once

#include <chrono>
#include <functional>
#include <iosfwd>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace extdeps {

class ProcessRunner;  // core/util/subprocess.h

// An option's value as the settings resolved it (core/config/config.h).
struct OptionValue {
  std::vector<std::string> values;  // one for a plain option
  std::string from;                 // "--channel", "EXTDEPS_CONDA_CHANNELS", "pyproject.toml:9:18"
};

class Context {
 public:
  using EnvLookup = std::function<std::optional<std::string>(std::string_view)>;
  using Clock = std::function<std::chrono::system_clock::time_point()>;
  using Sink = std::function<void(std::string_view)>;

  // The real process: environment from getenv, root "/", warnings to stderr.
  static Context from_process();
  // A context over a fixture tree with a fixed environment; warnings are collected in warnings().
  static Context for_test(std::string root, std::map<std::string, std::string> env = {});

  // Absolute path of a machine path under the root: host_path("/var/lib/dpkg/status").
  std::string host_path(std::string_view absolute) const;
  const std::string& root() const { return root_; }
  void set_root(std::string root) { root_ = root.empty() ? "/" : std::move(root); }

  // The process's environment (or the test's). Options are not read here: a variable that sets
  // an option (EXTDEPS_PLUGIN_TIMEOUT) is one layer of config::load, read through config::value.
  std::optional<std::string> env(std::string_view name) const { return env_(name); }

  // The options config::load resolved for this run, core's and the providers', by option name
  // (config::apply_to sets them); null until a run's settings are resolved. Read them through
  // core/config/values.h, which falls back to the environment's layer where they are not.
  using Options = std::map<std::string, OptionValue, std::less<>>;
  const Options* options() const { return options_ ? &*options_ : nullptr; }
  void set_options(std::optional<Options> options) { options_ = std::move(options); }
  std::chrono::system_clock::time_point now() const { return clock_(); }

  // Where extdeps keeps its caches ($XDG_CACHE_HOME/extdeps or ~/.cache/extdeps unless set).
  const std::string& cache_dir() const { return cache_dir_; }
  void set_cache_dir(std::string dir) { cache_dir_ = std::move(dir); }
  bool cache_enabled() const { return !cache_dir_.empty(); }

  // A warning for people ("warning: ..."), printed once per distinct text.
  void warn(std::string_view message) const;
  const std::vector<std::string>& warnings() const { return *warnings_; }
  void set_warning_sink(Sink sink) { sink_ = std::move(sink); }
  const Sink& warning_sink() const { return sink_; }

  // Runs a command (argv[0] looked up on PATH) with the caller's stdio; returns its exit status,
  // 127 when it cannot be started. Tests install a fake.
  using CommandRunner = std::function<int(const std::vector<std::string>& argv)>;
  int run_command(const std::vector<std::string>& argv) const { return runner_(argv); }
  void set_command_runner(CommandRunner runner) { runner_ = std::move(runner); }
  // Every child process extdeps starts to learn something (a compiler's --version, the driver
  // probe, python, nix-env, a plugin) is started by this runner: the real one by default; tests
  // install a fake that answers and records (tests/support/fake_processes.h).
  const ProcessRunner& processes() const;
  void set_process_runner(std::shared_ptr<const ProcessRunner> runner) { processes_ = std::move(runner); }
  // Where questions are answered ("run these commands? [y/N]"); nullptr: not interactive.
  std::istream* input() const { return input_; }
  void set_input(std::istream* in) { input_ = in; }
  bool is_root() const { return is_root_; }
  // Whether stderr is a terminal, so that downloads draw a progress line there. Set by main().
  bool stderr_is_terminal() const { return stderr_is_terminal_; }
  void set_stderr_is_terminal(bool yes) { stderr_is_terminal_ = yes; }
  // Whether stdout is a terminal, so that a plan for people is coloured there. Set by main().
  bool stdout_is_terminal() const { return stdout_is_terminal_; }
  void set_stdout_is_terminal(bool yes) { stdout_is_terminal_ = yes; }
  // The extdeps binary itself, for work done in a child process (the driver probe). Set by main();
  // empty in a library or test process, which then does no such work.
  const std::string& self_exe() const { return self_exe_; }
  void set_self_exe(std::string path) { self_exe_ = std::move(path); }
  void set_is_root(bool root) { is_root_ = root; }

  // The kernel's names for this machine, as uname(2) gives them ("Linux", "6.1.0-18-amd64",
  // "#1 SMP PREEMPT_DYNAMIC Debian 6.1.76-1", "x86_64"); every field empty where uname failed. Read once when the
  // context is made; tests set their own.
  struct Uname {
    std::string system, release, version, machine;
  };
  const Uname& uname() const { return uname_; }
  void set_uname(Uname u) { uname_ = std::move(u); }

  void set_env(EnvLookup env) { env_ = std::move(env); }
  void set_clock(Clock clock) { clock_ = std::move(clock); }

 private:
  std::string root_ = "/";
  EnvLookup env_;
  std::optional<Options> options_;
  Clock clock_;
  std::string cache_dir_;
  Sink sink_;
  CommandRunner runner_;
  std::shared_ptr<const ProcessRunner> processes_;
  std::istream* input_ = nullptr;
  bool is_root_ = false;
  bool stderr_is_terminal_ = false;
  bool stdout_is_terminal_ = false;
  std::string self_exe_;
  Uname uname_;
  std::shared_ptr<std::vector<std::string>> warnings_ = std::make_shared<std::vector<std::string>>();
};

}  // namespace extdeps
