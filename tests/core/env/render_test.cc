// The three renderings of a BuildEnv, read back by the programs they are for: a real sh evals the
// sh form, a real cmake -P includes the CMake form; the values that come out are the values put in,
// spaces, quotes, '$', ';' and backslashes included.
#include "core/env/render.h"

#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <fstream>

#include "tests/test_support.h"

namespace extdeps::env {
namespace {

// Runs a shell command line, returns its stdout.
std::string capture(const std::string& command, int* status = nullptr) {
  std::string out;
  FILE* p = popen(command.c_str(), "r");
  if (!p) return out;
  std::array<char, 4096> buf;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) out.append(buf.data(), n);
  int rc = pclose(p);
  if (status) *status = rc;
  return out;
}

BuildEnv awkward() {
  BuildEnv env;
  env.prepend_path("CPATH", "/opt/my libs/include", "dep:generic/a");
  env.prepend_path("CPATH", "/opt/it's/include", "dep:generic/b");
  env.prepend_path("LIBRARY_PATH", "/opt/$HOME;x\\y/lib", "dep:generic/a");
  env.prepend_path("PKG_CONFIG_PATH", "/opt/plain/lib/pkgconfig", "dep:generic/a");
  env.set("CUDA_HOME", "/opt/cuda \"12\"", "dep:virtual/compiler/cuda");
  return env;
}

TEST(BuildEnv, SearchPathsKeepOrderAndTakeEachEntryOnceValuesTheFirst) {
  BuildEnv env;
  env.prepend_path("CPATH", "/a", "dep:generic/x");
  env.prepend_path("CPATH", "/b", "dep:generic/y");
  env.prepend_path("CPATH", "/a", "dep:generic/y");
  env.prepend_path("CPATH", "/with:colon", "dep:generic/y");  // a search path cannot hold it
  env.prepend_path("CPATH", "", "dep:generic/y");
  env.set("CUDA_HOME", "/usr/local/cuda-12.4", "dep:generic/cuda");
  env.set("CUDA_HOME", "/opt/other", "dep:virtual/compiler/cuda");
  ASSERT_EQ(env.variables().size(), 2u);
  EXPECT_EQ(env.variables()[0].name, "CPATH");  // sorted by name
  EXPECT_EQ(env.find("CPATH")->joined(), "/a:/b");
  EXPECT_EQ(env.find("CPATH")->needs, (std::vector<std::string>{"dep:generic/x", "dep:generic/y"}));
  EXPECT_EQ(env.find("CUDA_HOME")->value, "/usr/local/cuda-12.4");
  EXPECT_EQ(env.find("CUDA_HOME")->needs, (std::vector<std::string>{"dep:generic/cuda"}));
}

TEST(RenderSh, ExactText) {
  BuildEnv env;
  env.prepend_path("PKG_CONFIG_PATH", "/opt/x/lib/pkgconfig", "dep:generic/x");
  env.set("CUDA_HOME", "/opt/it's", "dep:generic/cuda");
  EXPECT_EQ(render_sh(env),
            "export CUDA_HOME='/opt/it'\\''s'\n"
            "export PKG_CONFIG_PATH=/opt/x/lib/pkgconfig\"${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}\"\n");
}

TEST(RenderSh, AShellReadsBackEveryValueAndKeepsWhatWasSet) {
  std::string dir = test::temp_dir();
  std::ofstream(dir + "/env.sh") << render_sh(awkward());
  // Unset before: the entries alone. Set before: the entries, then the old value.
  std::string script = dir + "/show.sh";
  std::ofstream(script) << "unset CPATH; LIBRARY_PATH='/old lib'; export HOME=/nowhere\n"
                        << ". " << dir << "/env.sh\n"
                        << "printf '%s\\n' \"$CPATH\" \"$LIBRARY_PATH\" \"$CUDA_HOME\" \"$PKG_CONFIG_PATH\"\n";
  int status = 0;
  std::string out = capture("PKG_CONFIG_PATH=/usr/share/pkgconfig sh " + script, &status);
  ASSERT_EQ(status, 0) << out;
  EXPECT_EQ(out,
            "/opt/my libs/include:/opt/it's/include\n"
            "/opt/$HOME;x\\y/lib:/old lib\n"
            "/opt/cuda \"12\"\n"
            "/opt/plain/lib/pkgconfig:/usr/share/pkgconfig\n");
}

TEST(RenderCmake, CMakeReadsBackEveryValueAsVariablesEnvironmentAndSearchPaths) {
  std::string dir = test::temp_dir();
  std::ofstream(dir + "/env.cmake") << render_cmake(awkward());
  std::ofstream(dir + "/show.cmake") << "set(CMAKE_PREFIX_PATH /before)\n"
                                     << "set(CMAKE_INCLUDE_PATH /before/include)\n"
                                     << "include(" << dir << "/env.cmake)\n"
                                     << "message(\"vars=${EXTDEPS_ENV_VARIABLES}\")\n"
                                     << "message(\"cpath=$ENV{CPATH}\")\n"
                                     << "list(LENGTH EXTDEPS_ENV_CPATH n)\n"
                                     << "message(\"cpath entries=${n}\")\n"
                                     << "message(\"library_path=$ENV{LIBRARY_PATH}\")\n"
                                     << "list(GET CMAKE_LIBRARY_PATH 0 first)\n"
                                     << "message(\"cmake_library_path[0]=${first}\")\n"
                                     << "message(\"include_path=${CMAKE_INCLUDE_PATH}\")\n"
                                     << "message(\"cuda_home=$ENV{CUDA_HOME}|${EXTDEPS_ENV_CUDA_HOME}\")\n"
                                     << "message(\"pkg_config_path=$ENV{PKG_CONFIG_PATH}\")\n";
  int status = 0;
  std::string out =
      capture("env -u CPATH LIBRARY_PATH=/old PKG_CONFIG_PATH= cmake -P " + dir + "/show.cmake 2>&1", &status);
  ASSERT_EQ(status, 0) << out;
  EXPECT_EQ(out,
            "vars=CPATH;CUDA_HOME;LIBRARY_PATH;PKG_CONFIG_PATH\n"
            "cpath=/opt/my libs/include:/opt/it's/include\n"
            "cpath entries=2\n"
            "library_path=/opt/$HOME;x\\y/lib:/old\n"
            "cmake_library_path[0]=/opt/$HOME;x\\y/lib\n"
            "include_path=/opt/my libs/include;/opt/it's/include;/before/include\n"
            "cuda_home=/opt/cuda \"12\"|/opt/cuda \"12\"\n"
            "pkg_config_path=/opt/plain/lib/pkgconfig\n");
}

TEST(RenderJson, KindsEntriesValuesAndNeeds) {
  auto j = to_json(awkward());
  ASSERT_EQ(j.size(), 4u);
  EXPECT_EQ(j[0]["name"], "CPATH");
  EXPECT_EQ(j[0]["kind"], "path-list");
  EXPECT_EQ(j[0]["entries"], (std::vector<std::string>{"/opt/my libs/include", "/opt/it's/include"}));
  EXPECT_EQ(j[0]["needs"], (std::vector<std::string>{"dep:generic/a", "dep:generic/b"}));
  EXPECT_EQ(j[1]["name"], "CUDA_HOME");
  EXPECT_EQ(j[1]["kind"], "value");
  EXPECT_EQ(j[1]["value"], "/opt/cuda \"12\"");
  EXPECT_FALSE(j[1].contains("entries"));
}

TEST(Quote, ShAndCmake) {
  EXPECT_EQ(sh_quote("/usr/lib"), "/usr/lib");
  EXPECT_EQ(sh_quote(""), "''");
  EXPECT_EQ(sh_quote("a b"), "'a b'");
  EXPECT_EQ(sh_quote("it's"), "'it'\\''s'");
  EXPECT_EQ(cmake_quote("a;b$c\"d\\e"), "\"a;b\\$c\\\"d\\\\e\"");
  EXPECT_EQ(cmake_quote("a;b", CmakeValue::list_element), "\"a\\;b\"");
}

// A value with a line break, quotes, "$(...)", "${...}" and "]]" comes back as it went in: sh and
// CMake read it as one value, never as code.
TEST(RenderSh, HostileValuesStayValues) {
  BuildEnv env;
  const std::string evil = "/opt/x'\n$(touch pwned)`id`${HOME}\"]]\\\r\t;";
  env.set("CUDA_HOME", evil, "dep:generic/cuda");
  env.prepend_path("CPATH", evil + "/include", "dep:generic/x");
  std::string dir = test::temp_dir();
  std::ofstream(dir + "/env.sh") << render_sh(env);
  std::ofstream(dir + "/env.cmake") << render_cmake(env);
  std::ofstream(dir + "/show.sh") << "unset CPATH\n. " << dir << "/env.sh\nprintf '%s|%s' \"$CUDA_HOME\" \"$CPATH\"\n";
  int status = 0;
  std::string out = capture("cd " + dir + " && sh " + dir + "/show.sh", &status);
  ASSERT_EQ(status, 0) << out;
  EXPECT_EQ(out, evil + "|" + evil + "/include");
  std::ofstream(dir + "/show.cmake") << "include(" << dir << "/env.cmake)\n"
                                     << "file(WRITE " << dir
                                     << "/out.txt \"$ENV{CUDA_HOME}|${EXTDEPS_ENV_CUDA_HOME}\")\n";
  out = capture("cd " + dir + " && env -u CPATH cmake -P " + dir + "/show.cmake 2>&1", &status);
  ASSERT_EQ(status, 0) << out;
  EXPECT_EQ(test::read_file(dir + "/out.txt"), evil + "|" + evil);
  EXPECT_FALSE(std::ifstream(dir + "/pwned").good());
}

}  // namespace
}  // namespace extdeps::env
