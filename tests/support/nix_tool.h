// Debian's nix-bin (Nix 2.8), run for real and offline by the tests: the reference order of Nix
// versions (nix-instantiate --eval builtins.compareVersions), the real output of
// `nix-env -qaP --json --meta` on a small local expression, real profiles built by `nix-env -i`.
// Every run gets a throw-away store: NIX_STORE_DIR, NIX_STATE_DIR, NIX_LOG_DIR and NIX_CONF_DIR
// point into a temp folder whose nix.conf needs no build users, no sandbox and no substituters,
// so it works as any user, without /nix and without a network.
#pragma once

#include <map>
#include <optional>
#include <string>

namespace extdeps::test {

struct NixTool {
  std::string dir;                         // the temp folder (store, state, logs, conf, home)
  std::map<std::string, std::string> env;  // NIX_* as above, HOME, PATH
  // The variables as a prefix for a shell line: "NIX_STORE_DIR='...' ... ".
  std::string shell_env() const;
  // Runs a shell line with those variables; its stdout, or nullopt when it exits non-zero (the
  // caller's assertion then says so, with stderr appended to `err` when given).
  std::optional<std::string> run(const std::string& command, std::string* err = nullptr) const;
};

// Why the tests that need nix are skipped ("nix-instantiate is not installed ..."), or empty
// when nix is there.
std::string nix_missing();
// A fresh throw-away store; nullopt when nix_missing() is not empty.
std::optional<NixTool> nix_tool();

}  // namespace extdeps::test

// Skips the current test when nix-bin is not installed (scripts/install-deps.sh installs it).
#define EXTDEPS_NIX_OR_SKIP(var)                                  \
  auto var##_opt = ::extdeps::test::nix_tool();                   \
  if (!var##_opt) GTEST_SKIP() << ::extdeps::test::nix_missing(); \
  const ::extdeps::test::NixTool& var = *var##_opt
