// libcurl is loaded on first use (core/fetch/curl_api.h): a run that downloads nothing never
// loads it, and a machine without it gets an error naming the library and the package, not a
// loader failure before main. Runs the real binary: loading is once per process.
#include "core/fetch/curl_api.h"

#include <gtest/gtest.h>

#include <sys/wait.h>
#include <array>
#include <cstdio>
#include <string>

#include "tests/support/providers.h"
#include "tests/test_support.h"

namespace extdeps::fetch {
namespace {

struct Run {
  std::string out;
  int exit = -1;
};

Run run(const std::string& command) {
  Run r;
  FILE* p = popen((command + " 2>&1").c_str(), "r");
  if (!p) return r;
  std::array<char, 4096> buf;
  std::size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) r.out.append(buf.data(), n);
  int status = pclose(p);
  r.exit = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

std::string command(const std::string& args) {
  return "EXTDEPS_LIBCURL=/nonexistent/libcurl.so.4 " + std::string(EXTDEPS_BINARY) + " " + args + " --root " +
         test::data_path("apt/bookworm") + " --cache-dir " + test::temp_dir();
}

TEST(CurlApi, LoadsTheSystemLibcurl) {
  auto api = load_curl();
  ASSERT_TRUE(api.ok()) << api.error().message;
  // A real call through the table: libcurl's own URL parser.
  CURLU* u = (*api)->url();
  ASSERT_NE(u, nullptr);
  EXPECT_EQ((*api)->url_set(u, CURLUPART_URL, "https://conda.anaconda.org/conda-forge/", 0), CURLUE_OK);
  char* host = nullptr;
  ASSERT_EQ((*api)->url_get(u, CURLUPART_HOST, &host, 0), CURLUE_OK);
  EXPECT_STREQ(host, "conda.anaconda.org");
  (*api)->free(host);
  (*api)->url_cleanup(u);
}

TEST(CurlApi, AnAptResolveNeverLoadsIt) {
  EXTDEPS_NEEDS_PROVIDER("apt");
  auto r = run(command("resolve " + test::data_path("../../examples/cmake-xml") + " --manager apt"));
  EXPECT_EQ(r.out.find("libcurl"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("dep:generic/libxml2"), std::string::npos) << r.out;
  EXPECT_TRUE(r.exit == 0 || r.exit == 1) << r.exit << "\n" << r.out;
}

TEST(CurlApi, WithoutItADownloadSaysWhatIsMissing) {
  EXTDEPS_NEEDS_PROVIDER("conda");
  auto r = run(command("resolve " + test::data_path("../../examples/cmake-xml") +
                       " --manager conda --channel http://127.0.0.1:9/conda-forge"));
  EXPECT_EQ(r.exit, 3) << r.out;  // an environment error (docs/exit-codes.md)
  EXPECT_NE(r.out.find("cannot load /nonexistent/libcurl.so.4"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("install the package that ships /nonexistent/libcurl.so.4 (libcurl4 where extdeps is built)"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("http://127.0.0.1:9/conda-forge"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace extdeps::fetch
