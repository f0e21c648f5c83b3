// Helpers the version tests share: fixture lists, running a real tool, random version strings.
#pragma once

#include <sys/wait.h>

#include <cstdio>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "tests/test_support.h"

namespace extdeps::version::testing {

// tests/data/versions/<name>: one version a line; '#' lines and blank lines skipped.
inline std::vector<std::string> fixture_versions(const std::string& name) {
  std::istringstream in(test::read_file(test::data_path("versions/" + name)));
  std::vector<std::string> out;
  for (std::string line; std::getline(in, line);)
    if (!line.empty() && line[0] != '#') out.push_back(line);
  return out;
}

struct CommandResult {
  int status = -1;  // the exit status, or -1 when it did not run or exit normally
  std::string out;
};

// Runs a shell command line and collects its standard output.
inline CommandResult run_command(const std::string& command) {
  CommandResult r;
  FILE* p = popen(command.c_str(), "r");
  if (!p) return r;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
  int st = pclose(p);
  if (st != -1 && WIFEXITED(st)) r.status = WEXITSTATUS(st);
  return r;
}

inline std::vector<std::string> lines_of(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> out;
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

inline int sign(int v) { return v < 0 ? -1 : v > 0 ? 1 : 0; }

// A string of length [lo, hi] over `alphabet`.
inline std::string random_string(std::mt19937& rng, std::string_view alphabet, int lo, int hi) {
  std::uniform_int_distribution<int> len(lo, hi);
  std::uniform_int_distribution<size_t> pick(0, alphabet.size() - 1);
  std::string s;
  for (int i = len(rng); i > 0; --i) s += alphabet[pick(rng)];
  return s;
}

}  // namespace extdeps::version::testing
