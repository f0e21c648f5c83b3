// What a hostile or broken server cannot do to the fetcher: fill the disk with an endless body,
// break the cache with header bytes that are not UTF-8, downgrade https to http; and what a
// killed run leaves behind is removed by the next.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "core/fetch/fetch.h"
#include "core/fetch/options.h"
#include "core/fetch/transfer.h"
#include "core/fetch/url.h"
#include "tests/core/fetch/fetch_fixture.h"

#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

namespace fs = std::filesystem;

namespace extdeps::fetch {
namespace {

using HardeningTest = FetchFixture;
using test::Route;

TEST_F(HardeningTest, AnEndlessBodyStopsAtTheLimitAndLeavesNothing) {
  server.route("/endless", {.body = std::string(64 * 1024, 'x'), .endless = true});
  auto o = options();
  o.max_download_bytes = 1 << 20;
  auto r = Fetcher(ctx, o).fetch({.url = server.url("/endless")});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ExitCode::environment);
  EXPECT_EQ(r.error().message,
            server.url("/endless") +
                ": the body went past the limit of 1 MiB per download (max-download-size in the configuration, "
                "EXTDEPS_MAX_DOWNLOAD_SIZE); stopped");
  EXPECT_EQ(server.count("/endless"), 1);  // not retried
  expect_no_temp_files();
  for (const auto& f : cache_files()) EXPECT_FALSE(f.ends_with(".body")) << f;
}

TEST_F(HardeningTest, AContentLengthOverTheLimitFailsBeforeTheBody) {
  server.route("/big", {.body = std::string(300 * 1024, 'y')});
  auto o = options();
  o.max_download_bytes = 100 * 1024;
  auto r = Fetcher(ctx, o).fetch({.url = server.url("/big")});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("100 KiB per download"), std::string::npos) << r.error().message;
  expect_no_temp_files();
}

TEST_F(HardeningTest, TheRunTotalBoundsAllDownloadsTogether) {
  server.route("/a", {.body = std::string(600 * 1024, 'a')});
  server.route("/b", {.body = std::string(600 * 1024, 'b')});
  auto o = options();
  o.max_run_bytes = 1 << 20;
  Fetcher f(ctx, o);
  ASSERT_TRUE(f.fetch({.url = server.url("/a")}).ok());
  auto b = f.fetch({.url = server.url("/b")});
  ASSERT_FALSE(b.ok());
  EXPECT_EQ(b.error().message, server.url("/b") +
                                   ": the downloads of this run went past the limit of 1 MiB (max-download-total "
                                   "in the configuration, EXTDEPS_MAX_DOWNLOAD_TOTAL); stopped");
  expect_no_temp_files();
}

TEST(DownloadLimits, SizesComeFromTheEnvironment) {
  EXPECT_EQ(parse_size("2G"), std::uint64_t{2} << 30);
  EXPECT_EQ(parse_size("512MiB"), std::uint64_t{512} << 20);
  EXPECT_EQ(parse_size("100k"), std::uint64_t{100} << 10);
  EXPECT_EQ(parse_size("1048576"), std::uint64_t{1} << 20);
  EXPECT_FALSE(parse_size("0"));
  EXPECT_FALSE(parse_size("lots"));
  EXPECT_FALSE(parse_size("99999999999999999999"));
  auto ctx = Context::for_test("/", {{"EXTDEPS_MAX_DOWNLOAD_SIZE", "10M"}, {"EXTDEPS_MAX_DOWNLOAD_TOTAL", "1G"}});
  auto o = options_for(ctx, {});
  ASSERT_TRUE(o.ok());
  EXPECT_EQ(o->max_download_bytes, std::uint64_t{10} << 20);
  EXPECT_EQ(o->max_run_bytes, std::uint64_t{1} << 30);
  auto plain = Context::for_test("/");
  auto defaults = options_for(plain, {});
  EXPECT_EQ(defaults->max_download_bytes, std::uint64_t{2} << 30);
  auto bad = Context::for_test("/", {{"EXTDEPS_MAX_DOWNLOAD_SIZE", "big"}});
  auto e = options_for(bad, {});
  ASSERT_FALSE(e.ok());
  EXPECT_EQ(e.error().message, "EXTDEPS_MAX_DOWNLOAD_SIZE: expected a size such as 2G, 512M or 1048576, got 'big'");
  EXPECT_EQ(defaults->deadline_s, 1800);
  auto deadline = Context::for_test("/", {{"EXTDEPS_DOWNLOAD_DEADLINE", "90"}});
  EXPECT_EQ(options_for(deadline, {})->deadline_s, 90);
  // Seconds may have decimals; the deadline is whole seconds, rounded up.
  auto half = Context::for_test("/", {{"EXTDEPS_DOWNLOAD_DEADLINE", "1.5"}});
  EXPECT_EQ(options_for(half, {})->deadline_s, 2);
  for (const char* v : {"0", "-1", "604801", "99999999999999999999", "soon", "1e3"}) {
    auto bad_deadline = Context::for_test("/", {{"EXTDEPS_DOWNLOAD_DEADLINE", v}});
    auto d = options_for(bad_deadline, {});
    ASSERT_FALSE(d.ok()) << v;
    EXPECT_EQ(d.error().message,
              std::string("EXTDEPS_DOWNLOAD_DEADLINE: expected a number of seconds from 1 to 604800, got '") + v + "'");
  }
}

// An ETag with byte 0xFF used to make the metadata unwritable (JSON strings are UTF-8): every
// fetch failed and left a temporary file. Header values are kept as bytes.
TEST_F(HardeningTest, AnETagThatIsNotUtf8IsKeptAndSentBack) {
  std::string etag = "\"caf\xff\xfe\"";
  server.route("/index.json", {.body = "{}", .etag = etag});
  auto first = get("/index.json");
  ASSERT_TRUE(first.ok()) << first.error().message;
  expect_no_temp_files();
  auto second = get("/index.json");
  ASSERT_TRUE(second.ok()) << second.error().message;
  EXPECT_TRUE(second->revalidated);
  auto seen = server.seen("/index.json");
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_EQ(seen[1].header("if-none-match"), etag);
  expect_no_temp_files();
}

TEST_F(HardeningTest, TemporaryFilesOfAKilledRunAreRemovedByTheNext) {
  server.route("/x", {.body = "x"});
  fs::create_directories(cache + "/http");
  pid_t child = fork();
  if (child == 0) _exit(0);
  ASSERT_GT(child, 0);
  waitpid(child, nullptr, 0);
  std::string dead = cache + "/http/.tmp-" + std::to_string(child) + "-0-0123456789abcdef";
  std::string live = cache + "/http/.tmp-" + std::to_string(getpid()) + "-999-0123456789abcdef";
  std::ofstream(dead) << "partial";
  std::ofstream(live) << "partial";
  ASSERT_TRUE(get("/x").ok());
  EXPECT_FALSE(fs::exists(dead));
  EXPECT_TRUE(fs::exists(live));
}

TEST(PlainHttp, OnlyNonLoopbackHttpWarnsUnlessAllowed) {
  auto url = [](const char* u) { return *parse_url(u); };
  EXPECT_TRUE(warns_insecure_http(url("http://mirror.example.org/conda-forge/"), false));
  EXPECT_FALSE(warns_insecure_http(url("http://mirror.example.org/conda-forge/"), true));
  EXPECT_FALSE(warns_insecure_http(url("https://conda.anaconda.org/conda-forge/"), false));
  EXPECT_FALSE(warns_insecure_http(url("http://127.0.0.1:8080/x"), false));
  EXPECT_FALSE(warns_insecure_http(url("http://127.1.2.3/x"), false));
  EXPECT_FALSE(warns_insecure_http(url("http://localhost:8080/x"), false));
  EXPECT_FALSE(warns_insecure_http(url("http://[::1]:8080/x"), false));
  EXPECT_TRUE(warns_insecure_http(url("http://127.0.0.1.example.org/x"), false));
  EXPECT_FALSE(warns_insecure_http(url("file:///srv/mirror/x"), false));
}

TEST_F(HardeningTest, ALoopbackIndexDoesNotWarn) {
  server.route("/x", {.body = "x"});
  ASSERT_TRUE(get("/x").ok());
  EXPECT_TRUE(ctx.warnings().empty()) << ctx.warnings()[0];
}

// What a remote document names is remote (issue 31): a page or metalink served by anyone names
// no local file; a local one (a file:// index, a mirror on disk) may name either.
TEST(RemoteDocuments, NameOnlyHttpOrHttpsUrls) {
  auto bad = resolve_url("https://pypi.example/simple/a/", "file:///dev/zero");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().code, ExitCode::bad_input);
  EXPECT_NE(bad.error().message.find("a remote page may name only http or https URLs, not file:///dev/zero"),
            std::string::npos)
      << bad.error().message;
  EXPECT_FALSE(resolve_url("http://127.0.0.1:1/simple/a/", "FILE:///etc/passwd").ok());
  EXPECT_EQ(*resolve_url("https://pypi.example/simple/a/", "../../files/a-1.tar.gz"),
            "https://pypi.example/files/a-1.tar.gz");
  EXPECT_EQ(*resolve_url("https://pypi.example/simple/a/", "http://mirror.example/a-1.tar.gz"),
            "http://mirror.example/a-1.tar.gz");
  EXPECT_EQ(*resolve_url("file:///srv/simple/a/", "file:///srv/files/a-1.tar.gz"), "file:///srv/files/a-1.tar.gz");
  EXPECT_EQ(*resolve_url("file:///srv/simple/a/", "https://pypi.example/a-1.tar.gz"),
            "https://pypi.example/a-1.tar.gz");
  EXPECT_TRUE(remote_may_name("HTTPS://mirrors.example/metalink", "https://a.example/repodata/repomd.xml"));
  EXPECT_FALSE(remote_may_name("https://mirrors.example/metalink", "file:///dev/zero?/repodata/repomd.xml"));
  EXPECT_FALSE(remote_may_name("https://mirrors.example/metalink", "ftp://a.example/repodata/repomd.xml"));
  EXPECT_TRUE(remote_may_name("file:///etc/metalink", "file:///srv/repodata/repomd.xml"));
  EXPECT_TRUE(remote_may_name("/etc/metalink", "file:///srv/repodata/repomd.xml"));
}

TEST(SettingValues, AUrlIsToldFromAPathByItsScheme) {
  EXPECT_TRUE(is_url("https://example.org/debian.mapping.json"));
  EXPECT_TRUE(is_url("HTTP://127.0.0.1:8080/x.toml"));
  EXPECT_TRUE(is_url("file:///srv/mappings/debian.toml"));
  EXPECT_FALSE(is_url("debian=/srv/https://x.toml"));  // an ecosystem before a path
  EXPECT_FALSE(is_url("./https:/x"));
  EXPECT_FALSE(is_url("ftp://example.org/x"));  // not a scheme the fetcher reads: a path, then missing
  EXPECT_FALSE(is_url("https://"));             // nothing after the scheme
}

TEST(PlainHttp, AnHttpsUrlMayOnlyRedirectToHttps) {
  EXPECT_STREQ(redirect_protocols_for("https://conda.anaconda.org/x"), "https");
  EXPECT_STREQ(redirect_protocols_for("HTTPS://conda.anaconda.org/x"), "https");
  EXPECT_STREQ(redirect_protocols_for("http://127.0.0.1/x"), "http,https");
}

TEST(PlainHttp, TheSettingIsTheResolvedOption) {
  auto ctx = Context::for_test("/", {{"EXTDEPS_ALLOW_INSECURE_HTTP", "1"}});
  EXPECT_TRUE(options_for(ctx, {})->allow_insecure_http);
  auto yes = Context::for_test("/", {{"EXTDEPS_ALLOW_INSECURE_HTTP", "yes"}});
  EXPECT_TRUE(options_for(yes, {})->allow_insecure_http);
  // Once a run's settings are resolved (config::load: here a file said true, and the variable
  // was below a flag), the fetcher takes the resolved value and reads no variable itself.
  auto off = Context::for_test("/", {{"EXTDEPS_ALLOW_INSECURE_HTTP", "0"}});
  off.set_options(Context::Options{{"allow-insecure-http", OptionValue{{"1"}, "config.toml:3:1"}}});
  EXPECT_TRUE(options_for(off, {})->allow_insecure_http);
  auto plain = Context::for_test("/");
  EXPECT_FALSE(options_for(plain, {})->allow_insecure_http);
  auto bad = Context::for_test("/", {{"EXTDEPS_ALLOW_INSECURE_HTTP", "maybe"}});
  auto e = options_for(bad, {});
  ASSERT_FALSE(e.ok());
  EXPECT_EQ(e.error().message, "EXTDEPS_ALLOW_INSECURE_HTTP: expected 1 or 0, got 'maybe'");
}

}  // namespace
}  // namespace extdeps::fetch
