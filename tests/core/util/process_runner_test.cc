// The one way extdeps starts a child (core/util/subprocess.h): the real runner on real programs
// (sh, cat, env), and the fake every consumer can be tested with.
#include "core/util/subprocess.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <fstream>
#include <sstream>
#include <thread>

#include "core/detect/compilers.h"
#include "core/detect/cuda_probe.h"
#include "core/detect/host.h"
#include "core/detect/process.h"
#include "tests/support/fake_processes.h"
#include "tests/test_support.h"

namespace extdeps {
namespace {

ProcessRequest sh(const std::string& script, int timeout_ms = 10000) {
  ProcessRequest r;
  r.argv = {"/bin/sh", "-c", script};
  r.timeout_ms = timeout_ms;
  return r;
}

TEST(RunProcess, CapturesStdoutAndTheEndOfStderrAndTheExitCode) {
  auto r = run_process(sh("echo out; echo err >&2; exit 3"));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->out, "out\n");
  EXPECT_EQ(r->err_tail, "err\n");
  EXPECT_EQ(r->exit_status, 3);
  EXPECT_EQ(r->signal, 0);
  EXPECT_FALSE(r->ok());
}

TEST(RunProcess, WritesTheInputAndHandsOverLines) {
  ProcessRequest r;
  r.argv = {"/bin/cat"};
  r.input = "one\ntwo\nthree";
  std::vector<std::string> lines;
  r.on_line = [&](std::string_view l) {
    lines.emplace_back(l);
    return true;
  };
  auto ran = run_process(r);
  ASSERT_TRUE(ran.ok());
  EXPECT_TRUE(ran->ok());
  EXPECT_EQ(lines, (std::vector<std::string>{"one", "two", "three"}));
  EXPECT_EQ(ran->out, "");
}

// Children that exit without reading 8 MiB of input, four threads at once: each write meets a
// closed pipe, and the SIGPIPE that raises neither ends this process nor stays pending, and the
// process's handling of SIGPIPE (the default: end the process) is what it was.
TEST(RunProcess, ChildrenThatStopReadingTheirInputDoNotEndThisProcess) {
  struct sigaction before {};
  ASSERT_EQ(sigaction(SIGPIPE, nullptr, &before), 0);
  ASSERT_EQ(before.sa_handler, SIG_DFL);
  std::vector<std::thread> threads;
  std::vector<int> status(4, -1);
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&status, t] {
      ProcessRequest r = sh("exec 0<&-; exit 7");
      r.input.assign(std::size_t{8} << 20, 'x');
      auto ran = run_process(r);
      if (ran.ok()) status[t] = ran->exit_status;
    });
  for (auto& t : threads) t.join();
  EXPECT_EQ(status, (std::vector<int>{7, 7, 7, 7}));
  struct sigaction after {};
  ASSERT_EQ(sigaction(SIGPIPE, nullptr, &after), 0);
  EXPECT_EQ(after.sa_handler, SIG_DFL);
  sigset_t pending;
  sigpending(&pending);
  EXPECT_FALSE(sigismember(&pending, SIGPIPE));
}

TEST(RunProcess, StdoutToAFileWithExactlyTheGivenEnvironment) {
  ProcessRequest r;
  r.argv = {"/usr/bin/env"};
  r.env = std::vector<std::string>{"ONLY=this"};
  r.stdout_file = test::temp_dir() + "/out.txt";
  auto ran = run_process(r);
  ASSERT_TRUE(ran.ok()) << ran.error().message;
  EXPECT_TRUE(ran->ok());
  EXPECT_EQ(test::read_file(r.stdout_file), "ONLY=this\n");
}

TEST(RunProcess, TimeLimitKillsTheWholeGroup) {
  // The shell's child holds stdout open: only killing the group ends the run.
  auto start = std::chrono::steady_clock::now();
  auto ran = run_process(sh("sleep 30 & sleep 30; echo never", 300));
  ASSERT_TRUE(ran.ok());
  EXPECT_TRUE(ran->timed_out);
  EXPECT_FALSE(ran->ok());
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
}

TEST(RunProcess, SizeLimitAndStopAndSignal) {
  auto big = sh("yes");
  big.max_output = 100000;
  auto ran = run_process(big);
  ASSERT_TRUE(ran.ok());
  EXPECT_TRUE(ran->too_big);

  auto lines = sh("yes");
  int n = 0;
  lines.on_line = [&](std::string_view) { return ++n < 5; };
  ran = run_process(lines);
  ASSERT_TRUE(ran.ok());
  EXPECT_TRUE(ran->stopped);
  EXPECT_EQ(n, 5);

  ran = run_process(sh("kill -SEGV $$"));
  ASSERT_TRUE(ran.ok());
  EXPECT_EQ(ran->signal, SIGSEGV);
  EXPECT_EQ(ran->exit_status, 128 + SIGSEGV);
}

// A line longer than a read hands over whole (each read searches only its own bytes for the
// end of the line: issue 31's very long plugin line was searched again from its start on every
// read); past max_line the run is killed and says so.
TEST(RunProcess, LongLinesWholeAndBoundedByMaxLine) {
  auto r = sh("head -c 20000000 /dev/zero | tr '\\0' a; echo; echo b; printf c");
  r.max_output = 64 << 20;
  std::vector<std::size_t> sizes;
  std::string last;
  r.on_line = [&](std::string_view l) {
    sizes.push_back(l.size());
    last = std::string(l.substr(0, 1));
    return l.find_first_not_of(sizes.size() == 1 ? "a" : sizes.size() == 2 ? "b" : "c") == std::string_view::npos;
  };
  auto ran = run_process(r);
  ASSERT_TRUE(ran.ok());
  EXPECT_TRUE(ran->ok());
  EXPECT_EQ(sizes, (std::vector<std::size_t>{20000000, 1, 1}));
  EXPECT_EQ(last, "c");

  r.max_line = 1000000;
  sizes.clear();
  ran = run_process(r);
  ASSERT_TRUE(ran.ok());
  EXPECT_TRUE(ran->line_too_long);
  EXPECT_TRUE(ran->too_big);
  EXPECT_FALSE(ran->ok());
  EXPECT_TRUE(sizes.empty());

  auto short_lines = sh("yes abc | head -n 100000");
  short_lines.max_line = 8;
  std::size_t n = 0;
  short_lines.on_line = [&](std::string_view l) { return l == "abc" && ++n; };
  ran = run_process(short_lines);
  ASSERT_TRUE(ran.ok());
  EXPECT_TRUE(ran->ok());
  EXPECT_EQ(n, 100000u);
}

TEST(RunProcess, AProgramThatIsNotThereIsAnError) {
  ProcessRequest r;
  r.argv = {"/nonexistent/program"};
  auto ran = run_process(r);
  ASSERT_FALSE(ran.ok());
  EXPECT_NE(ran.error().message.find("cannot start /nonexistent/program"), std::string::npos);
}

// The consumers go through the Context's runner: a fake sees their requests and answers them.
TEST(FakeProcesses, CompilerDetectionAsksTheRunner) {
  Context ctx = Context::for_test(test::data_path("detect/compilers"), {{"PATH", "/usr/bin"}});
  auto fake = test::FakeProcesses::install(ctx);
  fake->on("cc", test::printed("cc (Debian 99.1.0-1) 99.1.0\nCopyright (C) 2099\n"));
  auto found = detect::detect_compilers(ctx, 2000);
  ASSERT_FALSE(fake->requests().empty());
  bool asked = false;
  for (const auto& r : fake->requests()) {
    EXPECT_EQ(r.argv.back(), "--version");
    EXPECT_EQ(r.timeout_ms, 2000);
    asked = asked || r.argv[0].ends_with("/cc");
  }
  EXPECT_TRUE(asked);
  auto cc = std::find_if(found.begin(), found.end(), [](const auto& c) { return c.name == "cc"; });
  ASSERT_NE(cc, found.end());
  EXPECT_EQ(cc->version, "99.1.0") << "the fixture's own cc says 12.2.0: the runner answered";
  // A compiler the runner cannot start (rustc, nvcc here) is left out, as a missing one is.
  for (const auto& c : found) EXPECT_EQ(c.name, "cc");
}

TEST(FakeProcesses, ATimeoutIsAnErrorNamingTheProgram) {
  Context ctx = Context::for_test("/");
  auto fake = test::FakeProcesses::install(ctx);
  ProcessResult slow;
  slow.timed_out = true;
  fake->on("slowtool", slow);
  auto r = detect::run_capture(ctx, {"/opt/slowtool", "--version"}, 1500);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, "/opt/slowtool did not finish within 1500 ms");
}

// The driver probe's child as the runner reports it: killed by a signal, or past its limit.
TEST(FakeProcesses, TheDriverProbeSaysHowItsChildEnded) {
  Context ctx = Context::for_test(test::data_path("detect/root"));
  ctx.set_self_exe("/opt/extdeps/bin/extdeps");
  auto fake = test::FakeProcesses::install(ctx);
  ProcessResult crashed;
  crashed.signal = SIGSEGV;
  crashed.exit_status = 128 + SIGSEGV;
  fake->on("extdeps", crashed);
  auto f = detect::probe_cuda(ctx, 3000, "");
  ASSERT_TRUE(f.ok()) << f.error().message;
  EXPECT_EQ(f->state, detect::CudaState::crashed);
  EXPECT_NE(f->detail.find("SIGSEGV"), std::string::npos) << f->detail;
  ASSERT_EQ(fake->requests().size(), 1u);
  EXPECT_EQ(fake->requests()[0].argv, (std::vector<std::string>{"/opt/extdeps/bin/extdeps", "__probe-cuda"}));
  EXPECT_TRUE(fake->requests()[0].env.has_value()) << "the probe runs with an environment of its own";

  ProcessResult late;
  late.timed_out = true;
  fake->on("extdeps", late);
  f = detect::probe_cuda(ctx, 3000, "");
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(f->state, detect::CudaState::timeout);
}

}  // namespace
}  // namespace extdeps
