#include "core/util/subprocess.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <optional>

extern char** environ;

namespace extdeps {

namespace {

// A child that exits without reading its input must not end this process with SIGPIPE. The
// signal is blocked in this thread alone for the write and, where the write met a closed pipe,
// taken back before it is unblocked: the process's handling of SIGPIPE is never changed, which
// sessions running children in several threads at once would undo for each other.
ssize_t write_without_sigpipe(int fd, const char* data, std::size_t n) {
  sigset_t pipe_signal, old;
  sigemptyset(&pipe_signal);
  sigaddset(&pipe_signal, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &pipe_signal, &old);
  const ssize_t w = ::write(fd, data, n);
  const int err = errno;
  if (w < 0 && err == EPIPE && !sigismember(&old, SIGPIPE)) {
    const timespec now{0, 0};
    while (sigtimedwait(&pipe_signal, nullptr, &now) < 0 && errno == EINTR) {
    }
  }
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
  errno = err;
  return w;
}

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

namespace {

// Waits for `pid` until `deadline`; true (with its wait status) when it was reaped.
bool reap_until(pid_t pid, int& status, std::chrono::steady_clock::time_point deadline) {
  for (;;) {
    pid_t r = waitpid(pid, &status, WNOHANG);
    if (r == pid) return true;
    if (r < 0 && errno != EINTR) return true;  // not ours any more: nothing to wait for
    if (std::chrono::steady_clock::now() >= deadline) return false;
    usleep(500);
  }
}

class SystemRunner : public ProcessRunner {
 public:
  Result<ProcessResult> run(const ProcessRequest& request) const override { return run_process(request); }
};

}  // namespace

std::shared_ptr<const ProcessRunner> system_process_runner() {
  static const auto runner = std::make_shared<const SystemRunner>();
  return runner;
}

namespace {

// "cannot create a pipe: Too many open files": the machine's limit, no place of ours.
Error no_pipe(int err) {
  return error_at(ExitCode::environment, "", std::string("cannot create a pipe: ") + std::strerror(err));
}

}  // namespace

Result<ProcessResult> run_process(const ProcessRequest& request) {
  const auto& argv = request.argv;
  if (argv.empty() || argv[0].empty()) return error_at(ExitCode::environment, "", "no command to run");
  Fd file;
  if (!request.on_line && !request.stdout_file.empty()) {
    file.fd = ::open(request.stdout_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (file.fd < 0)
      return error_at(ExitCode::environment, request.stdout_file,
                      std::string("cannot create: ") + std::strerror(errno));
  }
  int in[2], out[2], err[2];
  if (pipe2(in, O_CLOEXEC) != 0) return no_pipe(errno);
  Fd in_r{in[0]}, in_w{in[1]};
  if (pipe2(out, O_CLOEXEC) != 0) return no_pipe(errno);
  Fd out_r{out[0]}, out_w{out[1]};
  if (pipe2(err, O_CLOEXEC) != 0) return no_pipe(errno);
  Fd err_r{err[0]}, err_w{err[1]};

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in_r.fd, STDIN_FILENO);
  posix_spawn_file_actions_adddup2(&actions, out_w.fd, STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, err_w.fd, STDERR_FILENO);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  // A process group of its own, so a timeout also ends what a wrapper script started; every
  // signal at its default and none blocked, whatever this process does with them (SIGPIPE is
  // ignored here while writing the input; a library user may block others).
  sigset_t none, all;
  sigemptyset(&none);
  sigfillset(&all);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setsigdefault(&attr, &all);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
  posix_spawnattr_setpgroup(&attr, 0);
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  std::vector<char*> envp;
  if (request.env) {
    for (const auto& e : *request.env) envp.push_back(const_cast<char*>(e.c_str()));
    envp.push_back(nullptr);
  }
  pid_t pid = 0;
  int rc = posix_spawn(&pid, args[0], &actions, &attr, args.data(), request.env ? envp.data() : environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  if (rc != 0) {
    Error e = environment_error("cannot start " + argv[0] + ": " + std::strerror(rc));
    e.place = argv[0];
    e.what = std::string("cannot start (") + std::strerror(rc) + ")";
    return e;
  }
  in_r.close();
  out_w.close();
  err_w.close();
  fcntl(in_w.fd, F_SETFL, O_NONBLOCK);

  ProcessResult run;
  const std::string_view input = request.input;
  std::string pending;  // stdout not yet handed over as a line
  std::size_t written = 0, read_total = 0;
  std::optional<Error> file_error;
  if (input.empty()) in_w.close();
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(request.timeout_ms);
  auto kill_group = [&] { ::kill(-pid, SIGKILL); };
  bool done = false;
  while (!done && (out_r.fd >= 0 || err_r.fd >= 0)) {
    auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
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
        ssize_t w = write_without_sigpipe(in_w.fd, input.data() + written, input.size() - written);
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
      if (read_total > request.max_output) {
        run.too_big = true;
        kill_group();
        break;
      }
      if (file.fd >= 0) {
        for (ssize_t off = 0; off < r;) {
          ssize_t w = ::write(file.fd, buf + off, static_cast<std::size_t>(r - off));
          if (w < 0 && errno == EINTR) continue;
          if (w <= 0) {
            file_error = error_at(ExitCode::environment, request.stdout_file,
                                  std::string("cannot write: ") + std::strerror(errno));
            break;
          }
          off += w;
        }
        if (file_error) {
          kill_group();
          break;
        }
        continue;
      }
      if (!request.on_line) {
        run.out.append(buf, static_cast<std::size_t>(r));
        continue;
      }
      // Only the bytes just read are searched for '\n' (what was pending holds none), so a long
      // line costs its length, not its length squared.
      const std::size_t scanned = pending.size();
      pending.append(buf, static_cast<std::size_t>(r));
      std::size_t start = 0;
      for (std::size_t nl; (nl = pending.find('\n', std::max(start, scanned))) != std::string::npos; start = nl + 1) {
        if (!request.on_line(std::string_view(pending).substr(start, nl - start))) {
          run.stopped = true;
          kill_group();
          done = true;
          break;
        }
      }
      pending.erase(0, start);
      if (!done && request.max_line && pending.size() > request.max_line) {
        run.too_big = run.line_too_long = true;
        kill_group();
        break;
      }
    }
  }
  if (request.on_line && !done && !run.timed_out && !run.too_big && !file_error && !pending.empty())
    if (!request.on_line(pending)) run.stopped = true;
  in_w.close();
  out_r.close();
  err_r.close();
  // stdout is closed; a child that lingers past the deadline is killed too, and one the kernel
  // does not let go of within a second of that is left behind rather than waited for.
  int status = 0;
  if (!reap_until(pid, status, std::max(deadline, std::chrono::steady_clock::now()))) {
    run.timed_out = true;
    kill_group();
    if (!reap_until(pid, status, std::chrono::steady_clock::now() + std::chrono::seconds(1))) status = SIGKILL;
  }
  if (WIFEXITED(status)) {
    run.exit_status = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    run.signal = WTERMSIG(status);
    run.exit_status = 128 + run.signal;
  }
  if (file_error) return *file_error;
  return run;
}

}  // namespace extdeps
