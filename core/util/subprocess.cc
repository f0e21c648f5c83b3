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

namespace {

// The three pipes between this process and the child: its stdin, stdout and stderr.
struct Pipes {
  Fd in_r, in_w, out_r, out_w, err_r, err_w;
};

Result<void> make_pipes(Pipes& p) {
  int fds[2];
  for (auto [r, w] : {std::pair{&p.in_r, &p.in_w}, std::pair{&p.out_r, &p.out_w}, std::pair{&p.err_r, &p.err_w}}) {
    if (pipe2(fds, O_CLOEXEC) != 0) return no_pipe(errno);
    r->fd = fds[0];
    w->fd = fds[1];
  }
  return {};
}

// Starts argv[0] (a path) on the pipes, in a process group of its own, so a timeout also ends
// what a wrapper script started; every signal at its default and none blocked, whatever this
// process does with them (SIGPIPE is blocked here while writing the input; a library user may
// block others).
Result<pid_t> spawn_child(const ProcessRequest& request, Pipes& p) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, p.in_r.fd, STDIN_FILENO);
  posix_spawn_file_actions_adddup2(&actions, p.out_w.fd, STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, p.err_w.fd, STDERR_FILENO);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t none, all;
  sigemptyset(&none);
  sigfillset(&all);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setsigdefault(&attr, &all);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
  posix_spawnattr_setpgroup(&attr, 0);
  std::vector<char*> args;
  for (const auto& a : request.argv) args.push_back(const_cast<char*>(a.c_str()));
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
    Error e = environment_error("cannot start " + request.argv[0] + ": " + std::strerror(rc));
    e.place = request.argv[0];
    e.what = std::string("cannot start (") + std::strerror(rc) + ")";
    return e;
  }
  p.in_r.close();
  p.out_w.close();
  p.err_w.close();
  fcntl(p.in_w.fd, F_SETFL, O_NONBLOCK);
  return pid;
}

// The exchange with a running child: its input written as it takes it, its stderr's tail kept,
// its stdout kept, written to a file or handed over line by line, until it closes both or a
// limit ends it (then its process group is killed).
class Exchange {
 public:
  Exchange(const ProcessRequest& request, Pipes& pipes, pid_t pid, int file_fd, ProcessResult& run)
      : request_(request), p_(pipes), pid_(pid), file_fd_(file_fd), run_(run) {
    if (request.input.empty()) p_.in_w.close();
  }

  // Polls until stdout and stderr are closed, the deadline passes or a limit is met.
  void run_until(std::chrono::steady_clock::time_point deadline) {
    while (!stopped_ && (p_.out_r.fd >= 0 || p_.err_r.fd >= 0)) {
      auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
      if (left <= 0) {
        run_.timed_out = true;
        kill_group();
        break;
      }
      pollfd fds[3];
      int n = 0;
      int out_i = -1, err_i = -1, in_i = -1;
      if (p_.out_r.fd >= 0) fds[out_i = n++] = {p_.out_r.fd, POLLIN, 0};
      if (p_.err_r.fd >= 0) fds[err_i = n++] = {p_.err_r.fd, POLLIN, 0};
      if (p_.in_w.fd >= 0) fds[in_i = n++] = {p_.in_w.fd, POLLOUT, 0};
      int ready = poll(fds, static_cast<nfds_t>(n), static_cast<int>(left));
      if (ready < 0 && errno != EINTR) break;
      if (ready <= 0) continue;
      if (in_i >= 0 && fds[in_i].revents) write_input(fds[in_i].revents);
      if (err_i >= 0 && fds[err_i].revents) read_stderr();
      if (out_i >= 0 && fds[out_i].revents) read_stdout();
    }
    // The last line, without its '\n', once the child closed stdout of its own accord.
    if (request_.on_line && !stopped_ && !run_.timed_out && !run_.too_big && !file_error_ && !pending_.empty())
      if (!request_.on_line(pending_)) run_.stopped = true;
  }

  void kill_group() { ::kill(-pid_, SIGKILL); }
  std::optional<Error>& file_error() { return file_error_; }

 private:
  void write_input(short revents) {
    const std::string_view input = request_.input;
    if (revents & POLLOUT) {
      ssize_t w = write_without_sigpipe(p_.in_w.fd, input.data() + written_, input.size() - written_);
      if (w > 0) written_ += static_cast<std::size_t>(w);
      if (w < 0 && errno != EAGAIN && errno != EINTR) p_.in_w.close();  // it stopped reading
    } else {
      p_.in_w.close();
    }
    if (written_ == input.size()) p_.in_w.close();
  }

  void read_stderr() {
    char buf[4096];
    ssize_t r = ::read(p_.err_r.fd, buf, sizeof buf);
    if (r <= 0) {
      if (r == 0 || (errno != EINTR && errno != EAGAIN)) p_.err_r.close();
      return;
    }
    run_.err_tail.append(buf, static_cast<std::size_t>(r));
    if (run_.err_tail.size() > kErrTail) run_.err_tail.erase(0, run_.err_tail.size() - kErrTail);
  }

  void read_stdout() {
    char buf[65536];
    ssize_t r = ::read(p_.out_r.fd, buf, sizeof buf);
    if (r <= 0) {
      if (r == 0 || (errno != EINTR && errno != EAGAIN)) p_.out_r.close();
      return;
    }
    read_total_ += static_cast<std::size_t>(r);
    if (read_total_ > request_.max_output) {
      run_.too_big = true;
      stop();
      return;
    }
    const std::string_view bytes(buf, static_cast<std::size_t>(r));
    if (file_fd_ >= 0) write_to_file(bytes);
    else if (!request_.on_line) run_.out.append(bytes);
    else hand_over_lines(bytes);
  }

  void write_to_file(std::string_view bytes) {
    for (std::size_t off = 0; off < bytes.size();) {
      ssize_t w = ::write(file_fd_, bytes.data() + off, bytes.size() - off);
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) {
        file_error_ =
            error_at(ExitCode::environment, request_.stdout_file, std::string("cannot write: ") + std::strerror(errno));
        stop();
        return;
      }
      off += static_cast<std::size_t>(w);
    }
  }

  // Only the bytes just read are searched for '\n' (what was pending holds none), so a long line
  // costs its length, not its length squared.
  void hand_over_lines(std::string_view bytes) {
    const std::size_t scanned = pending_.size();
    pending_.append(bytes);
    std::size_t start = 0;
    for (std::size_t nl; (nl = pending_.find('\n', std::max(start, scanned))) != std::string::npos; start = nl + 1) {
      if (!request_.on_line(std::string_view(pending_).substr(start, nl - start))) {
        run_.stopped = true;
        stop();
        return;
      }
    }
    pending_.erase(0, start);
    if (request_.max_line && pending_.size() > request_.max_line) {
      run_.too_big = run_.line_too_long = true;
      stop();
    }
  }

  void stop() {
    kill_group();
    stopped_ = true;
  }

  const ProcessRequest& request_;
  Pipes& p_;
  pid_t pid_;
  int file_fd_;
  ProcessResult& run_;
  std::string pending_;  // stdout not yet handed over as a line
  std::size_t written_ = 0, read_total_ = 0;
  std::optional<Error> file_error_;
  bool stopped_ = false;
};

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
  Pipes pipes;
  if (auto made = make_pipes(pipes); !made) return made.error();
  auto pid = spawn_child(request, pipes);
  if (!pid) return pid.error();

  ProcessResult run;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(request.timeout_ms);
  Exchange exchange(request, pipes, *pid, file.fd, run);
  exchange.run_until(deadline);
  pipes.in_w.close();
  pipes.out_r.close();
  pipes.err_r.close();
  // stdout is closed; a child that lingers past the deadline is killed too, and one the kernel
  // does not let go of within a second of that is left behind rather than waited for.
  int status = 0;
  if (!reap_until(*pid, status, std::max(deadline, std::chrono::steady_clock::now()))) {
    run.timed_out = true;
    exchange.kill_group();
    if (!reap_until(*pid, status, std::chrono::steady_clock::now() + std::chrono::seconds(1))) status = SIGKILL;
  }
  if (WIFEXITED(status)) {
    run.exit_status = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    run.signal = WTERMSIG(status);
    run.exit_status = 128 + run.signal;
  }
  if (exchange.file_error()) return *exchange.file_error();
  return run;
}

}  // namespace extdeps
