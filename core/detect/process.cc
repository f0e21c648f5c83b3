#include "core/detect/process.h"

#include "core/util/subprocess.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>

extern char** environ;

namespace extdeps::detect {

namespace {

// Starts argv[0] (a path) in a process group of its own, so a timeout also ends what a wrapper
// script started: stdin from /dev/null, stdout to out_fd, stderr to err_fd (or /dev/null when
// negative). 0 and errno's text in `why` when it cannot be started.
pid_t spawn(const std::vector<std::string>& argv, char** envp, int out_fd, int err_fd, std::string& why) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, out_fd, STDOUT_FILENO);
  if (err_fd >= 0) posix_spawn_file_actions_adddup2(&actions, err_fd, STDERR_FILENO);
  else posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attr, 0);
  pid_t pid = 0;
  int rc = posix_spawn(&pid, args[0], &actions, &attr, args.data(), envp);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  if (rc != 0) why = std::strerror(rc);
  return rc == 0 ? pid : 0;
}

}  // namespace

std::string find_on_path(const Context& ctx, std::string_view tool) {
  std::string path = ctx.env("PATH").value_or("");
  std::string_view rest = path;
  while (true) {
    size_t colon = rest.find(':');
    std::string_view dir = rest.substr(0, colon);
    if (!dir.empty()) {
      std::string file = std::string(dir) + "/" + std::string(tool);
      struct stat st {};
      if (::stat(file.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(file.c_str(), X_OK) == 0) return file;
    }
    if (colon == std::string_view::npos) return {};
    rest.remove_prefix(colon + 1);
  }
}

Result<Captured> run_capture(const std::vector<std::string>& argv, int timeout_ms) {
  if (argv.empty()) return environment_error("no command to run");
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0)
    return environment_error("cannot create a pipe for " + argv[0] + ": " + std::strerror(errno));

  std::string why;
  pid_t pid = spawn(argv, environ, fds[1], -1, why);
  close(fds[1]);
  if (!pid) {
    close(fds[0]);
    return environment_error("cannot run " + argv[0] + ": " + why);
  }

  Captured c;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  bool timed_out = false;
  char buf[4096];
  for (;;) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                    deadline - std::chrono::steady_clock::now())
                    .count();
    if (left <= 0) {
      timed_out = true;
      break;
    }
    pollfd p{fds[0], POLLIN, 0};
    int n = poll(&p, 1, static_cast<int>(left));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) break;
    if (n == 0) {
      timed_out = true;
      break;
    }
    ssize_t got = read(fds[0], buf, sizeof buf);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;
    if (c.out.size() < (1u << 20)) c.out.append(buf, static_cast<size_t>(got));
  }
  close(fds[0]);
  if (timed_out) {
    kill(-pid, SIGKILL);
    wait_status(pid);
    return environment_error(argv[0] + " did not finish within " + std::to_string(timeout_ms) + " ms");
  }
  // stdout is closed; a child that lingers past the deadline is still killed.
  for (;;) {
    int status = 0;
    pid_t w = waitpid(pid, &status, WNOHANG);
    if (w == pid) {
      c.exit_status = WIFEXITED(status) ? WEXITSTATUS(status)
                                        : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
      return c;
    }
    if (w < 0 && errno != EINTR) return environment_error("lost track of " + argv[0]);
    if (std::chrono::steady_clock::now() >= deadline) {
      kill(-pid, SIGKILL);
      wait_status(pid);
      return environment_error(argv[0] + " did not finish within " + std::to_string(timeout_ms) +
                               " ms");
    }
    usleep(200);
  }
}

Result<RanToFile> run_to_file(const std::vector<std::string>& argv, const std::vector<std::string>& env,
                              const std::string& out_path, int timeout_ms) {
  if (argv.empty()) return environment_error("no command to run");
  int out = ::open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (out < 0) return environment_error(out_path + ": cannot create: " + std::strerror(errno));
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) {
    close(out);
    return environment_error("cannot create a pipe for " + argv[0] + ": " + std::strerror(errno));
  }
  std::vector<char*> envp;
  for (const auto& e : env) envp.push_back(const_cast<char*>(e.c_str()));
  envp.push_back(nullptr);
  std::string why;
  pid_t pid = spawn(argv, envp.data(), out, fds[1], why);
  close(fds[1]);
  close(out);
  if (!pid) {
    close(fds[0]);
    return environment_error("cannot run " + argv[0] + ": " + why);
  }
  RanToFile r;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  auto timed_out = [&] {
    kill(-pid, SIGKILL);
    wait_status(pid);
    return environment_error(argv[0] + " did not finish within " + std::to_string(timeout_ms / 1000) + " s");
  };
  char buf[4096];
  for (;;) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
    if (left <= 0) {
      close(fds[0]);
      return timed_out();
    }
    pollfd p{fds[0], POLLIN, 0};
    int n = poll(&p, 1, static_cast<int>(left));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) continue;  // the deadline is checked above
    ssize_t got = read(fds[0], buf, sizeof buf);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;
    r.err.append(buf, static_cast<size_t>(got));
    if (r.err.size() > 8192) r.err.erase(0, r.err.size() - 4096);
  }
  close(fds[0]);
  if (r.err.size() > 4096) r.err.erase(0, r.err.size() - 4096);
  for (;;) {
    int status = 0;
    pid_t w = waitpid(pid, &status, WNOHANG);
    if (w == pid) {
      r.exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
      return r;
    }
    if (w < 0 && errno != EINTR) return environment_error("lost track of " + argv[0]);
    if (std::chrono::steady_clock::now() >= deadline) return timed_out();
    usleep(1000);
  }
}

}  // namespace extdeps::detect
