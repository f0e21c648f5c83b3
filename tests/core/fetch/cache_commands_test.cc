// `extdeps cache info` and `extdeps cache clean`, as functions and through the command line.
#include "core/fetch/cache_commands.h"

#include <gtest/gtest.h>

#include <CLI/CLI.hpp>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "core/cli/cli.h"
#include "core/fetch/cache_store.h"
#include "core/fetch/file_lock.h"
#include "core/fetch/options.h"
#include "core/util/sealed_file.h"
#include "tests/core/fetch/fetch_fixture.h"

namespace fs = std::filesystem;

// Designated initializers leave the other fields at their defaults on purpose; GCC 12 warns.
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

namespace extdeps::fetch {
namespace {

using namespace std::chrono_literals;
using test::Route;

class FetchCacheCommandsTest : public FetchFixture {
 protected:
  // Three downloads (fresh, stale, not found), a leftover, and the other caches.
  void fill() {
    server.route("/fresh.json", {.body = std::string(2048, 'f'), .headers = {{"Cache-Control", "max-age=3600"}}});
    server.route("/stale.json", {.body = "s", .etag = "\"s\""});
    auto f = fetcher();
    ASSERT_TRUE(f.fetch({.url = server.url("/fresh.json")}).ok());
    ASSERT_TRUE(f.fetch({.url = server.url("/stale.json")}).ok());
    ASSERT_TRUE(f.fetch({.url = server.url("/none.zst"), .missing_ok = true}).ok());
    fs::create_directories(cache + "/solv");
    std::ofstream(cache + "/solv/debian-0123456789abcdef.available.solv")
        << sealed::seal("solv", std::string(936, 'x'));
    fs::create_directories(cache + "/tables");
    std::ofstream(cache + "/tables/0123456789abcdef.tables") << sealed::seal("tabl", std::string(436, 't'));
    std::ofstream(cache + "/tables/notes.tables") << sealed::seal("tabl", "mine");
    std::ofstream(cache + "/tables/fedcba9876543210.tables") << sealed::seal("solv", "another kind");
    fs::create_directories(cache + "/detect");
    std::ofstream(cache + "/detect/host.json") << "{}";
    fs::create_directories(cache + "/pypi/interpreters");
    std::ofstream(cache + "/pypi/interpreters/0123456789abcdef.json") << "{}";
    std::ofstream(cache + "/pypi/interpreters/0123456789abcdef.json.tmp.12") << "{";
    std::ofstream(cache + "/pypi/interpreters/python.json") << "mine";
    fs::create_directories(cache + "/pypi/crawls");
    std::ofstream(cache + "/pypi/crawls/0123456789abcdef.crawl") << sealed::seal("pypc", std::string(186, 'c'));
    std::ofstream(cache + "/pypi/crawls/0123456789abcdef.notes") << "mine";
    std::ofstream(cache + "/http/.tmp-0123456789abcdef-1-1") << "partial";
  }
  std::string info() {
    std::ostringstream out;
    auto r = cache_info(ctx, cache + "/http", out);
    EXPECT_TRUE(r.ok()) << r.error().message;
    return out.str();
  }
};

TEST_F(FetchCacheCommandsTest, InfoListsTheDownloadsAndSummarisesTheOtherCaches) {
  fill();
  later(30min);
  std::string text = info();
  EXPECT_TRUE(contains(text, "downloads: " + cache + "/http\n")) << text;
  EXPECT_TRUE(contains(text, "  fresh       30 min ago    2.0 KiB  " + server.url("/fresh.json") + "\n")) << text;
  EXPECT_TRUE(contains(text, "  stale       30 min ago        1 B  " + server.url("/stale.json") + "\n")) << text;
  EXPECT_TRUE(contains(text, "  not found   30 min ago        0 B  " + server.url("/none.zst") + "\n")) << text;
  EXPECT_TRUE(contains(text, "  3 downloads, ")) << text;
  EXPECT_TRUE(contains(text,
                       "  1 leftover file (unfinished downloads, entries without metadata), 7 B: "
                       "`extdeps cache clean` removes them\n"))
      << text;
  EXPECT_TRUE(contains(text, "solv: " + cache + "/solv: 1 file, 1000 B\n")) << text;
  EXPECT_TRUE(contains(text, "tables: " + cache + "/tables: 3 files, ")) << text;
  EXPECT_TRUE(contains(text, "detect: " + cache + "/detect: 1 file, 2 B\n")) << text;
  EXPECT_TRUE(contains(text, "pypi/interpreters: " + cache + "/pypi/interpreters: 3 files, 7 B\n")) << text;
  EXPECT_TRUE(contains(text, "pypi/crawls: " + cache + "/pypi/crawls: 2 files, 254 B\n")) << text;
  EXPECT_TRUE(contains(text, "total: ")) << text;
}

TEST_F(FetchCacheCommandsTest, InfoOnAnEmptyCache) {
  EXPECT_EQ(info(), "downloads: " + cache + "/http\n  no downloads\nsolv: " + cache + "/solv: empty\ntables: " + cache +
                        "/tables: empty\ndetect: " + cache + "/detect: empty\nplugins: " + cache +
                        "/plugins: empty\npypi/interpreters: " + cache +
                        "/pypi/interpreters: empty\npypi/crawls: " + cache + "/pypi/crawls: empty\ntotal: 0 B\n");
}

// A cache folder that is a symlink is not followed by info either (it may point at /), nor is a
// symlinked file counted.
TEST_F(FetchCacheCommandsTest, InfoNeverFollowsSymlinks) {
  fill();
  std::string elsewhere = test::temp_dir();
  std::ofstream(elsewhere + "/big.iso") << std::string(5000, 'x');
  fs::remove_all(cache + "/solv");
  fs::create_directory_symlink(elsewhere, cache + "/solv");
  fs::create_symlink(elsewhere + "/big.iso", cache + "/detect/link.json");
  std::string http = test::temp_dir();
  std::string text = info();
  EXPECT_TRUE(contains(text, "solv: " + cache + "/solv: a symlink, not a folder extdeps made; not followed\n")) << text;
  EXPECT_TRUE(contains(text, "detect: " + cache + "/detect: 1 file, 2 B\n")) << text;
  fs::rename(cache + "/http", http + "/moved");
  fs::create_directory_symlink(http + "/moved", cache + "/http");
  text = info();
  EXPECT_TRUE(contains(text, "downloads: " + cache + "/http\n  a symlink, not a folder extdeps made; not followed\n"))
      << text;
  EXPECT_FALSE(contains(text, "fresh")) << text;
}

TEST_F(FetchCacheCommandsTest, CleanRemovesAllButDownloadsRunningNow) {
  fill();
  // An old leftover goes; a temporary file written just now may be another process's download.
  std::string old_tmp = cache + "/http/.tmp-fedcba9876543210-1-2";
  std::ofstream(old_tmp) << "old";
  fs::last_write_time(old_tmp, fs::file_time_type::clock::now() - 1h);
  std::ostringstream out;
  ASSERT_TRUE(cache_clean(ctx, cache + "/http", out).ok());
  std::string text = out.str();
  EXPECT_TRUE(text.starts_with("removed 3 downloads (")) << text;
  EXPECT_TRUE(contains(text, "kept 1 file of downloads running now\n")) << text;
  EXPECT_TRUE(contains(text, "removed 1 file (1000 B) from " + cache + "/solv\n")) << text;
  // Only the sealed tables file named as extdeps names them goes.
  EXPECT_TRUE(contains(text, "removed 1 file (500 B) from " + cache + "/tables\n")) << text;
  EXPECT_TRUE(contains(text, "kept 2 files in " + cache + "/tables that extdeps did not write\n")) << text;
  EXPECT_FALSE(fs::exists(cache + "/tables/0123456789abcdef.tables"));
  EXPECT_TRUE(fs::exists(cache + "/tables/notes.tables"));
  EXPECT_TRUE(fs::exists(cache + "/tables/fedcba9876543210.tables"));
  EXPECT_TRUE(contains(text, "removed 1 file (2 B) from " + cache + "/detect\n")) << text;
  EXPECT_TRUE(contains(text, "removed 2 files (3 B) from " + cache + "/pypi/interpreters\n")) << text;
  EXPECT_TRUE(contains(text, "kept 1 file in " + cache + "/pypi/interpreters that extdeps did not write\n")) << text;
  EXPECT_TRUE(fs::exists(cache + "/pypi/interpreters/python.json"));
  EXPECT_TRUE(contains(text, "removed 1 file (250 B) from " + cache + "/pypi/crawls\n")) << text;
  EXPECT_TRUE(contains(text, "kept 1 file in " + cache + "/pypi/crawls that extdeps did not write\n")) << text;
  EXPECT_FALSE(fs::exists(cache + "/pypi/crawls/0123456789abcdef.crawl"));
  EXPECT_TRUE(fs::exists(cache + "/pypi/crawls/0123456789abcdef.notes"));
  EXPECT_FALSE(fs::exists(old_tmp));
  EXPECT_TRUE(fs::exists(cache + "/http/.tmp-0123456789abcdef-1-1"));
  auto listing = CacheStore(cache + "/http").list();
  EXPECT_TRUE(listing.entries.empty());
  EXPECT_TRUE(listing.orphans.empty());
  EXPECT_FALSE(fs::exists(cache + "/solv/debian-0123456789abcdef.available.solv"));
  // The next fetch downloads again.
  ASSERT_TRUE(fetcher().fetch({.url = server.url("/fresh.json")}).ok());
  EXPECT_EQ(server.count("/fresh.json"), 2);
}

// clean removes only what extdeps wrote: a symlinked cache folder is not followed, files of other
// names (or without the header) stay, and nothing outside the cache root is touched.
TEST_F(FetchCacheCommandsTest, CleanNeverFollowsSymlinksNorRemovesFilesItDidNotWrite) {
  fill();
  std::string precious = test::temp_dir();
  fs::create_directories(precious + "/sub");
  std::ofstream(precious + "/thesis.tex") << "years of work";
  std::ofstream(precious + "/sub/data.csv") << "1,2,3";
  // A folder of the user's own where extdeps keeps its .solv files...
  fs::rename(cache + "/solv", cache + "/solv-old");
  fs::create_directory_symlink(precious, cache + "/solv");
  // ...and stray files among the downloads and in detect/.
  std::ofstream(cache + "/http/notes.txt") << "mine";
  std::ofstream(cache + "/http/0123456789abcdef.txt") << "mine too";
  fs::create_directory(cache + "/http/folder");
  std::ofstream(cache + "/http/folder/x.json") << "{}";
  fs::create_symlink(precious + "/thesis.tex", cache + "/http/fedcba9876543210.body");
  std::ofstream(cache + "/detect/README") << "mine";
  std::ostringstream out;
  ASSERT_TRUE(cache_clean(ctx, cache + "/http", out).ok());
  std::string text = out.str();
  EXPECT_TRUE(text.starts_with("removed 3 downloads (")) << text;
  EXPECT_TRUE(contains(text, "skipped " + cache +
                                 "/solv: not a folder extdeps made (a symlink or a file); "
                                 "remove it yourself\n"))
      << text;
  EXPECT_TRUE(contains(text, "kept 4 files in " + cache + "/http that extdeps did not write\n")) << text;
  EXPECT_TRUE(contains(text, "removed 1 file (2 B) from " + cache + "/detect\n")) << text;
  EXPECT_TRUE(contains(text, "kept 1 file in " + cache + "/detect that extdeps did not write\n")) << text;
  EXPECT_EQ(test::read_file(precious + "/thesis.tex"), "years of work");
  EXPECT_EQ(test::read_file(precious + "/sub/data.csv"), "1,2,3");
  EXPECT_TRUE(fs::exists(cache + "/http/notes.txt"));
  EXPECT_TRUE(fs::exists(cache + "/http/0123456789abcdef.txt"));
  EXPECT_TRUE(fs::exists(cache + "/http/folder/x.json"));
  EXPECT_TRUE(fs::is_symlink(cache + "/http/fedcba9876543210.body"));
  EXPECT_TRUE(fs::exists(cache + "/detect/README"));

  // In a real solv folder, a file without the header is not extdeps's either.
  fs::remove(cache + "/solv");
  fs::rename(cache + "/solv-old", cache + "/solv");
  std::ofstream(cache + "/solv/debian-fedcba9876543210.installed.solv") << "not sealed";
  std::ofstream(cache + "/solv/mine.solv") << "mine";
  std::ostringstream again;
  ASSERT_TRUE(cache_clean(ctx, cache + "/http", again).ok());
  EXPECT_TRUE(contains(again.str(), "removed 1 file (1000 B) from " + cache + "/solv\n")) << again.str();
  EXPECT_TRUE(fs::exists(cache + "/solv/debian-fedcba9876543210.installed.solv"));
  EXPECT_TRUE(fs::exists(cache + "/solv/mine.solv"));
}

TEST_F(FetchCacheCommandsTest, CleanWaitsForTheLock) {
  fill();
  auto held = FileLock::acquire(cache + "/http/.lock", FileLock::Mode::shared);
  ASSERT_TRUE(held.ok());
  std::atomic<bool> done{false};
  std::thread cleaner([&] {
    std::ostringstream out;
    EXPECT_TRUE(cache_clean(ctx, cache + "/http", out).ok());
    done = true;
  });
  std::this_thread::sleep_for(150ms);
  EXPECT_FALSE(done);
  EXPECT_EQ(CacheStore(cache + "/http").list().entries.size(), 3u);
  { auto release = std::move(held).value(); }
  cleaner.join();
  EXPECT_TRUE(done);
  EXPECT_TRUE(CacheStore(cache + "/http").list().entries.empty());
}

TEST_F(FetchCacheCommandsTest, TheCommandLineRunsThem) {
  fill();
  auto c = Context::for_test("/");
  std::ostringstream out, err;
  int rc = cli::run(c, {"cache", "info", "--cache-dir", cache}, out, err);
  EXPECT_EQ(rc, 0) << err.str();
  EXPECT_TRUE(contains(out.str(), "downloads: " + cache + "/http\n")) << out.str();
  EXPECT_TRUE(contains(out.str(), server.url("/fresh.json"))) << out.str();
  std::ostringstream out2, err2;
  rc = cli::run(c, {"cache", "clean", "--cache-dir", cache}, out2, err2);
  EXPECT_EQ(rc, 0) << err2.str();
  EXPECT_TRUE(out2.str().starts_with("removed 3 downloads")) << out2.str();
  std::ostringstream out3, err3;
  EXPECT_EQ(cli::run(c, {"cache"}, out3, err3), 0);  // the help of cache, as for a bare extdeps
  EXPECT_TRUE(contains(out3.str(), "Usage: extdeps cache")) << out3.str();
  std::ostringstream out4, err4;
  auto bad = Context::for_test("/", {{"EXTDEPS_OFFLINE", "maybe"}});
  EXPECT_EQ(cli::run(bad, {"cache", "info", "--cache-dir", cache}, out4, err4), 2);
  EXPECT_EQ(err4.str(), "error: EXTDEPS_OFFLINE: expected 1 or 0, got 'maybe'\n");
}

TEST_F(FetchCacheCommandsTest, NoCacheFolderIsAnError) {
  auto c = Context::for_test("/");
  std::ostringstream out;
  auto r = cache_info(c, "", out);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ExitCode::environment);
  EXPECT_EQ(r.error().message, "no cache folder (set XDG_CACHE_HOME or pass --cache-dir)");
}

TEST(FetchOptionsTest, FlagsAndEnvironmentMakeTheOptions) {
  CLI::App app;
  auto* cmd = app.add_subcommand("get");
  FetchFlags flags;
  add_fetch_flags(*cmd, config::Command::cache_info, flags);
  app.parse(std::vector<std::string>{"--offline", "/tmp/c", "--cache-dir", "get"});  // CLI11 takes them reversed
  EXPECT_TRUE(flags.offline);
  EXPECT_EQ(flags.cache_dir, "/tmp/c");

  auto ctx = Context::for_test("/");
  ctx.set_cache_dir("/home/u/.cache/extdeps");
  auto o = options_for(ctx, flags);
  ASSERT_TRUE(o.ok());
  EXPECT_EQ(ctx.cache_dir(), "/tmp/c");
  EXPECT_EQ(o->cache_dir, "/tmp/c/http");
  EXPECT_TRUE(o->offline);
  EXPECT_FALSE(o->progress);

  auto env_ctx = Context::for_test("/", {{"EXTDEPS_OFFLINE", "1"}});
  env_ctx.set_cache_dir("/c");
  auto from_env = options_for(env_ctx, FetchFlags{.stderr_is_terminal = true});
  ASSERT_TRUE(from_env.ok());
  EXPECT_TRUE(from_env->offline);
  EXPECT_TRUE(from_env->progress);
  EXPECT_EQ(from_env->cache_dir, "/c/http");
  auto off = Context::for_test("/", {{"EXTDEPS_OFFLINE", "0"}});
  EXPECT_FALSE(options_for(off, {})->offline);
}

}  // namespace
}  // namespace extdeps::fetch
