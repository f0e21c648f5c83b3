#include "core/detect/process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>

extern char** environ;

namespace extdeps::detect {

namespace {

int wait_status(pid_t pid) {
  int status = 0;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return 127;
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

}  // namespace

Result<Captured> run_capture(const std::vector<std::string>& argv, int timeout_ms) {
  if (argv.empty()) return environment_error("no command to run");
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0)
    return environment_error("cannot create a pipe for " + argv[0] + ": " + std::strerror(errno));

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  // Its own process group, so a timeout also ends what a wrapper script started.
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attr, 0);
  pid_t pid = 0;
  int rc = posix_spawn(&pid, args[0], &actions, &attr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  close(fds[1]);
  if (rc != 0) {
    close(fds[0]);
    return environment_error("cannot run " + argv[0] + ": " + std::strerror(rc));
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
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, out, STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, fds[1], STDERR_FILENO);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  std::vector<char*> args, envp;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  for (const auto& e : env) envp.push_back(const_cast<char*>(e.c_str()));
  envp.push_back(nullptr);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attr, 0);
  pid_t pid = 0;
  int rc = posix_spawn(&pid, args[0], &actions, &attr, args.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  close(fds[1]);
  close(out);
  if (rc != 0) {
    close(fds[0]);
    return environment_error("cannot run " + argv[0] + ": " + std::strerror(rc));
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
