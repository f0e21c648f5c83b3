// Helpers every test uses: where fixtures are, and ../shared/data (skipped, saying why, where absent).
#pragma once

#include <optional>
#include <string>

namespace extdeps::test {

// The folders and files of this build the tests use. CMake writes them into one generated file
// (<build>/generated/test_paths.cc, tests/CMakeLists.txt), not as compile definitions, so that no
// compile line names a folder and ccache reuses the objects across worktrees and clean roots.
namespace build {
extern const char* const test_data;     // tests/data
extern const char* const shared_data;   // ../shared/data, beside the checkout
extern const char* const fake_libcuda;  // tests/fakes/fake_libcuda.c, built
extern const char* const fake_libnvml;  // tests/fakes/fake_libnvidia_ml.c, built
extern const char* const extdeps_binary;
extern const char* const every_provider;  // the project's providers (EXTDEPS_PROVIDERS), ';'-separated
}  // namespace build

// tests/data/<rel>
std::string data_path(const std::string& rel);
// ../shared/data/<rel>, or nullopt when shared/ is not beside the checkout.
std::optional<std::string> shared_data(const std::string& rel);
std::string read_file(const std::string& path);
// A fresh empty directory under the system temp dir, removed at exit.
std::string temp_dir();
// Validates the JSON file `doc` against the JSON Schema file `schema` with /usr/bin/python3's
// jsonschema (Debian: python3-jsonschema): "" when it validates, else what is wrong (the
// validator's message, or that jsonschema is missing).
std::string json_schema_problem(const std::string& schema, const std::string& doc);
// Runs `command` through /bin/sh and returns its stdout; nullopt when it cannot run or exits non-zero.
std::optional<std::string> command_output(const std::string& command);

}  // namespace extdeps::test

#include "core/util/build_paths.h"
#define EXTDEPS_TEST_DATA (::extdeps::test::build::test_data)
#define EXTDEPS_SHARED_DATA (::extdeps::test::build::shared_data)
#define EXTDEPS_FAKE_LIBCUDA (::extdeps::test::build::fake_libcuda)
#define EXTDEPS_FAKE_LIBNVML (::extdeps::test::build::fake_libnvml)
#define EXTDEPS_BINARY (::extdeps::test::build::extdeps_binary)
#define EXTDEPS_SOURCE_MAPPINGS_DIR (::extdeps::build_paths::source_mappings_dir)
#define EXTDEPS_INSTALLED_MAPPINGS_DIR (::extdeps::build_paths::installed_mappings_dir)

// Skips the current test when ../shared/data/<rel> is absent.
#define EXTDEPS_SHARED_OR_SKIP(var, rel)                                                                       \
  auto var##_opt = ::extdeps::test::shared_data(rel);                                                          \
  if (!var##_opt) GTEST_SKIP() << "../shared/data/" << (rel) << " is absent (no shared/ beside the checkout)"; \
  const std::string var = *var##_opt
