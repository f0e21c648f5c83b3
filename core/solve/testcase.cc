// Writing the final solve as a libsolv testcase (resolve --dump-testcase) and solving one again
// (extdeps debug replay), through libsolvext loaded on first use (solvext.h).
#include "core/solve/testcase.h"

#include <sys/stat.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <tuple>
#include <vector>

#include "core/solve/solve.h"
#include "core/solve/solvext.h"
#include "core/util/printable.h"
#include "core/util/regular_file.h"

namespace extdeps::solve {

namespace {

// Each "name-0:evr.arch@repo" word of a testcase line as libsolv's testtags reader will name the
// solvable: without a zero epoch (the first "-0:" of a word that names a solvable; no name
// extdeps makes holds one) and without the '-' of an empty release.
std::string without_zero_epochs(const std::string& line) {
  std::string out;
  std::size_t i = 0;
  while (i <= line.size()) {
    std::size_t end = line.find(' ', i);
    if (end == std::string::npos) end = line.size();
    std::string word = line.substr(i, end - i);
    if (auto repo = word.rfind('@'); repo != std::string::npos) {
      if (auto at = word.find("-0:"); at != std::string::npos) word.erase(at + 1, 2);
      // An evr with an empty release ("n13^n2^-", conda's without a local part) is written
      // without its '-' by the testtags writer, so it is named without it too.
      repo = word.rfind('@');
      if (auto dot = word.rfind('.', repo); dot != std::string::npos && dot > 0 && word[dot - 1] == '-')
        word.erase(dot - 1, 1);
    }
    out += word;
    if (end < line.size()) out += ' ';
    i = end + 1;
  }
  return out;
}

}  // namespace

// The final solve as a libsolv testcase: the pool's repos (installed, each provider's, the
// bundles), the jobs, and the result, so that it can be solved again without the indexes.
Result<void> write_testcase(Pool* pool, Solver* solv, const BundleSet& bundles, const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) {
    return error_at(ExitCode::environment, "", "cannot make the testcase folder " + dir + ": " + ec.message());
  }
  // A testcase names a solvable by name, version, arch and repo. Bundles share all four only
  // when their packages have the same native version too (one version listed by two indexes:
  // a bundle's release is its package's rank among that package's versions), and libsolv would
  // read both as the first. Only while the files are written, each but the first of them gets
  // its own version (".1", ".2" after it, in the order of the pool); the replayed solve then has
  // every candidate the real one had.
  std::map<std::tuple<Repo*, Id, Id, Id>, int> seen;
  std::vector<std::pair<Id, Id>> renamed;  // solvable, its real evr
  for (Id p = 2; p < pool->nsolvables; ++p) {
    Solvable* s = pool_id2solvable(pool, p);
    if (!s->repo || !bundles.find(p)) continue;
    int n = seen[{s->repo, s->name, s->evr, s->arch}]++;
    if (n == 0) continue;
    renamed.emplace_back(p, s->evr);
    s->evr = pool_str2id(pool, (std::string(pool_id2str(pool, s->evr)) + "." + std::to_string(n)).c_str(), 1);
  }
  auto ext = load_solvext();
  if (!ext.ok()) {
    for (auto [p, evr] : renamed) pool_id2solvable(pool, p)->evr = evr;
    return ext.error();
  }
  const int written =
      (*ext)->write(solv, dir.c_str(), TESTCASE_RESULT_TRANSACTION | TESTCASE_RESULT_PROBLEMS, "testcase.t", "result");
  for (auto [p, evr] : renamed) pool_id2solvable(pool, p)->evr = evr;
  if (!written) {
    return error_at(ExitCode::environment, "", "cannot write the libsolv testcase into " + dir);
  }
  // libsolv names a solvable "name-evr.arch@repo" in jobs and results, with the evr as the pool
  // has it ("0:12.2"); its testtags reader drops a zero epoch from the repos' versions ("12.2"),
  // so it would not find them again. The same versions without it.
  for (const char* name : {"testcase.t", "result"}) {
    const std::string file = dir + "/" + name;
    std::ifstream in(file, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    in.close();
    std::string out, line;
    while (std::getline(text, line)) {
      bool refs = std::string_view(name) == "result" || line.starts_with("job ") || line.starts_with("namespace ");
      out += (refs ? without_zero_epochs(line) : line) + "\n";
    }
    std::ofstream(file, std::ios::binary | std::ios::trunc) << out;
  }
  return {};
}

// A file a testcase line names: a plain name in the folder (no '/', not starting with '.'), a
// regular file there and not a link, of at most kMaxTestcaseFile bytes. A testcase folder is
// anyone's: a name like ../../../dev/zero blocked replay, and libsolv's own "solv" format
// crashed its reader (issue 31), so only what --dump-testcase writes is read.
constexpr std::uint64_t kMaxTestcaseFile = 256u << 20;

static std::optional<std::string> bad_testcase_file(const std::string& dir, const std::string& name) {
  const bool plain = !name.empty() && name[0] != '.' && std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
           c == '-' || c == '+';
  });
  if (!plain) return "names a file '" + printable_text(name) + "' that is not a plain name in the folder";
  struct stat st {};
  if (::lstat((dir + "/" + name).c_str(), &st) != 0) return "names a file '" + name + "' that is not in the folder";
  if (!S_ISREG(st.st_mode)) return "names '" + name + "', which is not a regular file (a link, FIFO or folder)";
  if (static_cast<std::uint64_t>(st.st_size) > kMaxTestcaseFile)
    return "names '" + name + "', larger than " + std::to_string(kMaxTestcaseFile) + " bytes";
  return std::nullopt;
}

Result<Replay> replay_testcase(const std::string& dir) {
  const std::string testcase = dir + "/testcase.t";
  auto text = read_regular_file_if_present(testcase, kMaxTestcaseFile, Links::refuse, ExitCode::bad_input);
  if (!text.ok()) return text.error();
  if (!*text)
    return error_at(ExitCode::bad_input, "", "no libsolv testcase in " + dir,
                    "testcase.t, as resolve --dump-testcase writes");
  {
    std::istringstream in(**text);
    std::size_t line_no = 0;
    bool jobs = false;
    if (auto nul = (*text)->find('\0'); nul != std::string::npos)
      return error_at(ExitCode::bad_input,
                      testcase + ":" + std::to_string(1 + std::count((*text)->begin(), (*text)->begin() + nul, '\n')),
                      "a NUL byte", "text, as --dump-testcase writes");
    for (std::string line; std::getline(in, line);) {
      ++line_no;
      // libsolv 0.7's testcase reader crashes on a namespace line naming a solvable of an arch
      // the pool does not know, and extdeps' pools set no arch: conda's match expressions
      // (extdeps:matching namespaces) cannot be replayed yet.
      if (line.starts_with("namespace "))
        return error_at(ExitCode::bad_input, testcase,
                        "the solve used match expressions (its namespace lines), which libsolv's testcase "
                        "reader cannot replay here",
                        "", "a plan whose packages need no match expression can be");
      std::istringstream words(line);
      std::vector<std::string> w;
      for (std::string word; words >> word;) w.push_back(word);
      const std::string place = testcase + ":" + std::to_string(line_no);
      // Only the kinds of line --dump-testcase writes: libsolv's reader leaks what some others
      // allocate (a disable line's map: the fuzz finding disable-line-leak), and no dump needs them.
      static constexpr std::string_view kWritten[] = {"repo", "system", "poolflags", "solverflags", "job", "result"};
      if (!w.empty() && !w[0].starts_with('#') &&
          std::find(std::begin(kWritten), std::end(kWritten), w[0]) == std::end(kWritten))
        return error_at(ExitCode::bad_input, place, "a '" + w[0] + "' line, which --dump-testcase never writes",
                        "repo, system, poolflags, solverflags, job or result lines");
      // libsolv's reader refuses a repo or system line after the first job, but reads on, and a
      // job naming a package after such a repo line crashes it (a null read in
      // testcase_str2solvid: the fuzz finding repo-after-job-segv). --dump-testcase writes every
      // repo and the system first.
      if (!w.empty() && w[0] == "job") jobs = true;
      if (jobs && !w.empty() && (w[0] == "repo" || w[0] == "system"))
        return error_at(ExitCode::bad_input, place, "a " + w[0] + " line after the jobs",
                        "every repo and system line before the first job, as --dump-testcase writes them");
      if (!w.empty() && w[0] == "repo") {
        // repo NAME PRIORITY testtags FILE (or <inline>), as --dump-testcase writes it
        if (w.size() != 5 || w[3] != "testtags")
          return error_at(ExitCode::bad_input, place, "a repo line extdeps does not read",
                          "repo NAME PRIORITY testtags FILE, as --dump-testcase writes");
        if (w[4] != "<inline>")
          if (auto bad = bad_testcase_file(dir, w[4])) return error_at(ExitCode::bad_input, place, *bad);
      } else if (!w.empty() && w[0] == "result") {
        if (w.size() != 3)
          return error_at(ExitCode::bad_input, place, "a result line extdeps does not read", "result FLAGS FILE");
        if (w[2] != "<inline>")
          if (auto bad = bad_testcase_file(dir, w[2])) return error_at(ExitCode::bad_input, place, *bad);
      }
    }
  }
  auto ext = load_solvext();
  if (!ext.ok()) return ext.error();
  PoolPtr pool(pool_create());
  // What libsolv says is wrong while reading (an unknown package in a job, a repo file that is
  // not there) is an error of the testcase, not a line on stderr.
  std::string errors;
  pool_setdebugmask(pool.get(), SOLV_ERROR | SOLV_FATAL);
  pool_setdebugcallback(
      pool.get(),
      [](Pool*, void* data, int, const char* text) {
        auto* e = static_cast<std::string*>(data);
        if (e->size() < 4096) e->append(text);
      },
      &errors);
  SolvQueue job;
  char* result = nullptr;
  int resultflags = 0;
  Solver* read = (*ext)->read(pool.get(), nullptr, testcase.c_str(), job.get(), &result, &resultflags);
  if (!read || !errors.empty() || !result) {
    std::free(result);
    if (read) solver_free(read);
    while (!errors.empty() && errors.back() == '\n') errors.pop_back();
    if (auto nl = errors.find('\n'); nl != std::string::npos) errors = errors.substr(0, nl) + " (and more)";
    return error_at(ExitCode::bad_input, testcase,
                    "not a testcase extdeps can replay" +
                        (errors.empty() ? std::string(result ? "" : ": it records no result") : ": " + errors));
  }
  SolverPtr solv(read);
  Replay out;
  out.recorded = result ? result : "";
  std::free(result);
  out.jobs = static_cast<std::size_t>(job.size() / 2);
  out.problems = solver_solve(solv.get(), job.get());
  char* now = (*ext)->solverresult(solv.get(), resultflags);
  out.now = now ? now : "";
  std::free(now);
  return out;
}

}  // namespace extdeps::solve
