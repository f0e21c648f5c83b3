// Helpers every test uses: where fixtures are, and ../shared/data (skipped, saying why, where absent).
#pragma once

#include <optional>
#include <string>

namespace extdeps::test {

// tests/data/<rel>
std::string data_path(const std::string& rel);
// ../shared/data/<rel>, or nullopt when shared/ is not beside the checkout.
std::optional<std::string> shared_data(const std::string& rel);
std::string read_file(const std::string& path);
// A fresh empty directory under the system temp dir, removed at exit.
std::string temp_dir();

}  // namespace extdeps::test

// Skips the current test when ../shared/data/<rel> is absent.
#define EXTDEPS_SHARED_OR_SKIP(var, rel)                                              \
  auto var##_opt = ::extdeps::test::shared_data(rel);                                 \
  if (!var##_opt) GTEST_SKIP() << "../shared/data/" << (rel) << " is absent (no shared/ beside the checkout)"; \
  const std::string var = *var##_opt
