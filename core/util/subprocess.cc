#include "core/util/subprocess.h"

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

namespace extdeps {

namespace {

constexpr std::size_t kErrTail = 4096;

struct Fd {
  int fd = -1;
  ~Fd() { close(); }
  void close() {
    if (fd >= 0) ::close(fd);
    fd = -1;
  }
};

}  // namespace

int wait_status(pid_t pid) {
  int status = 0;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return 127;
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

Result<LineRun> run_lines(const std::vector<std::string>& argv, std::string_view input, int timeout_ms,
                          std::size_t max_bytes, const std::function<bool(std::string_view line)>& on_line) {
  if (argv.empty()) return environment_error("no command to run");
  int in[2], out[2], err[2];
  if (pipe2(in, O_CLOEXEC) != 0) return environment_error("cannot create a pipe: " + std::string(std::strerror(errno)));
  Fd in_r{in[0]}, in_w{in[1]};
  if (pipe2(out, O_CLOEXEC) != 0) return environment_error("cannot create a pipe: " + std::string(std::strerror(errno)));
  Fd out_r{out[0]}, out_w{out[1]};
  if (pipe2(err, O_CLOEXEC) != 0) return environment_error("cannot create a pipe: " + std::string(std::strerror(errno)));
  Fd err_r{err[0]}, err_w{err[1]};

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in_r.fd, STDIN_FILENO);
  posix_spawn_file_actions_adddup2(&actions, out_w.fd, STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, err_w.fd, STDERR_FILENO);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  // A process group of its own, so a timeout also ends what a wrapper script started; SIGPIPE
  // back to its default in the child whatever the parent does with it.
  sigset_t defaults;
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGPIPE);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF);
  posix_spawnattr_setpgroup(&attr, 0);
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  int rc = posix_spawn(&pid, args[0], &actions, &attr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  if (rc != 0) return environment_error("cannot start " + argv[0] + ": " + std::strerror(rc));
  in_r.close();
  out_w.close();
  err_w.close();
  fcntl(in_w.fd, F_SETFL, O_NONBLOCK);
  // A child that exits without reading its input must not kill us with SIGPIPE.
  struct sigaction ignore {}, old {};
  ignore.sa_handler = SIG_IGN;
  sigaction(SIGPIPE, &ignore, &old);

  LineRun run;
  std::string pending;  // stdout not yet handed over as a line
  std::size_t written = 0, read_total = 0;
  if (input.empty()) in_w.close();
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  auto kill_group = [&] { ::kill(-pid, SIGKILL); };
  bool done = false;
  while (!done && (out_r.fd >= 0 || err_r.fd >= 0)) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
    if (left <= 0) {
      run.timed_out = true;
      kill_group();
      break;
    }
    pollfd fds[3];
    int n = 0;
    int out_i = -1, err_i = -1, in_i = -1;
    if (out_r.fd >= 0) fds[out_i = n++] = {out_r.fd, POLLIN, 0};
    if (err_r.fd >= 0) fds[err_i = n++] = {err_r.fd, POLLIN, 0};
    if (in_w.fd >= 0) fds[in_i = n++] = {in_w.fd, POLLOUT, 0};
    int ready = poll(fds, static_cast<nfds_t>(n), static_cast<int>(left));
    if (ready < 0 && errno != EINTR) break;
    if (ready <= 0) continue;
    if (in_i >= 0 && fds[in_i].revents) {
      if (fds[in_i].revents & POLLOUT) {
        ssize_t w = ::write(in_w.fd, input.data() + written, input.size() - written);
        if (w > 0) written += static_cast<std::size_t>(w);
        if (w < 0 && errno != EAGAIN && errno != EINTR) in_w.close();  // it stopped reading
      } else {
        in_w.close();
      }
      if (written == input.size()) in_w.close();
    }
    if (err_i >= 0 && fds[err_i].revents) {
      char buf[4096];
      ssize_t r = ::read(err_r.fd, buf, sizeof buf);
      if (r <= 0) {
        if (r == 0 || (errno != EINTR && errno != EAGAIN)) err_r.close();
      } else {
        run.err_tail.append(buf, static_cast<std::size_t>(r));
        if (run.err_tail.size() > kErrTail) run.err_tail.erase(0, run.err_tail.size() - kErrTail);
      }
    }
    if (out_i >= 0 && fds[out_i].revents) {
      char buf[65536];
      ssize_t r = ::read(out_r.fd, buf, sizeof buf);
      if (r <= 0) {
        if (r == 0 || (errno != EINTR && errno != EAGAIN)) out_r.close();
        continue;
      }
      read_total += static_cast<std::size_t>(r);
      if (read_total > max_bytes) {
        run.too_big = true;
        kill_group();
        break;
      }
      pending.append(buf, static_cast<std::size_t>(r));
      std::size_t start = 0;
      for (std::size_t nl; (nl = pending.find('\n', start)) != std::string::npos; start = nl + 1) {
        if (!on_line(std::string_view(pending).substr(start, nl - start))) {
          run.stopped = true;
          kill_group();
          done = true;
          break;
        }
      }
      pending.erase(0, start);
    }
  }
  if (!done && !run.timed_out && !run.too_big && !pending.empty())
    if (!on_line(pending)) run.stopped = true;
  in_w.close();
  out_r.close();
  err_r.close();
  run.exit_status = wait_status(pid);
  sigaction(SIGPIPE, &old, nullptr);
  return run;
}

}  // namespace extdeps
