// The fetcher against a real server on 127.0.0.1 that fails on purpose: after every failure the
// cache is intact and the error names the URL.
#include "core/fetch/fetch.h"

#include <gtest/gtest.h>
#include <sys/resource.h>
#include <zstd.h>

#include <csignal>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <thread>

#include "core/fetch/cache_store.h"
#include "tests/core/fetch/fetch_fixture.h"

namespace fs = std::filesystem;

// Designated initializers leave the other fields at their defaults on purpose; GCC 12 warns.
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

namespace extdeps::fetch {
namespace {

using FetchTest = FetchFixture;
using test::Encoding;
using test::Route;
using namespace std::chrono_literals;

std::string body_of(const Result<Response>& r) {
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
  if (!r.ok() || r->body_path.empty()) return {};
  return test::read_file(r->body_path);
}

std::string error_of(const Result<Response>& r) {
  EXPECT_FALSE(r.ok());
  if (r.ok()) return {};
  EXPECT_EQ(r.error().code, ExitCode::environment);
  return r.error().message;
}

TEST_F(FetchTest, DownloadsIntoTheCacheAndServesAFreshCopyWithoutTheNetwork) {
  server.route("/index.json", {.body = "{\"a\":1}", .headers = {{"Cache-Control", "max-age=60"}}});
  auto first = get("/index.json");
  EXPECT_EQ(body_of(first), "{\"a\":1}");
  EXPECT_FALSE(first->from_cache);
  EXPECT_EQ(first->http_status, 200);
  EXPECT_EQ(first->fetched_at, now);
  EXPECT_EQ(first->url, server.url("/index.json"));
  EXPECT_TRUE(first->body_path.starts_with(cache + "/http/"));

  later(30s);
  auto second = get("/index.json");
  EXPECT_EQ(body_of(second), "{\"a\":1}");
  EXPECT_TRUE(second->from_cache);
  EXPECT_EQ(second->fetched_at, now - 30s);
  EXPECT_EQ(server.count("/index.json"), 1);

  later(31s);  // past max-age, and no validator: downloaded again
  auto third = get("/index.json");
  EXPECT_FALSE(third->from_cache);
  EXPECT_EQ(server.count("/index.json"), 2);
  EXPECT_TRUE(server.seen("/index.json")[1].header("If-None-Match").empty());
  expect_no_temp_files();
}

TEST_F(FetchTest, RevalidatesWithTheETagAnd304KeepsTheBody) {
  server.route("/r", {.body = "v1 body", .etag = "\"v1\""});
  ASSERT_TRUE(get("/r").ok());
  later(10s);
  auto again = get("/r");
  EXPECT_EQ(body_of(again), "v1 body");
  EXPECT_TRUE(again->revalidated);
  EXPECT_FALSE(again->from_cache);
  EXPECT_EQ(again->http_status, 304);
  EXPECT_EQ(again->fetched_at, now);
  ASSERT_EQ(server.count("/r"), 2);
  EXPECT_EQ(server.seen("/r")[1].header("If-None-Match"), "\"v1\"");

  // New content under a new ETag replaces the entry.
  server.route("/r", {.body = "v2 body, longer", .etag = "\"v2\""});
  auto changed = get("/r");
  EXPECT_EQ(body_of(changed), "v2 body, longer");
  EXPECT_FALSE(changed->revalidated);
  EXPECT_EQ(server.seen("/r")[2].header("If-None-Match"), "\"v1\"");
  expect_no_temp_files();
}

TEST_F(FetchTest, RevalidatesWithLastModified) {
  const std::string lm = "Mon, 01 Jan 2024 00:00:00 GMT";
  server.route("/lm", {.body = "dated", .last_modified = lm});
  ASSERT_TRUE(get("/lm").ok());
  auto again = get("/lm");
  EXPECT_TRUE(again->revalidated);
  EXPECT_EQ(body_of(again), "dated");
  EXPECT_EQ(server.seen("/lm")[1].header("If-Modified-Since"), lm);
}

TEST_F(FetchTest, MaxAgeZeroRevalidatesEveryTime) {
  server.route("/m0", {.body = "x", .headers = {{"Cache-Control", "max-age=0"}}, .etag = "\"e\""});
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(get("/m0").ok());
  EXPECT_EQ(server.count("/m0"), 3);
}

TEST_F(FetchTest, TheRequestMaxAgeReplacesTheServers) {
  server.route("/long", {.body = "x", .headers = {{"Cache-Control", "max-age=3600"}}, .etag = "\"e\""});
  ASSERT_TRUE(get("/long").ok());
  auto forced = get("/long", {.max_age_s = 0});
  EXPECT_TRUE(forced->revalidated);
  EXPECT_EQ(server.count("/long"), 2);

  server.route("/none", {.body = "y"});
  ASSERT_TRUE(get("/none").ok());
  later(100s);
  auto kept = get("/none", {.max_age_s = 600});
  EXPECT_TRUE(kept->from_cache);
  EXPECT_EQ(server.count("/none"), 1);
}

TEST_F(FetchTest, ExpiresMinusDateIsTheLifetime) {
  auto sent = std::chrono::system_clock::now();
  server.route("/exp",
               {.body = "e", .headers = {{"Date", test::http_date(sent)}, {"Expires", test::http_date(sent + 120s)}}});
  ASSERT_TRUE(get("/exp").ok());
  later(60s);
  EXPECT_TRUE(get("/exp")->from_cache);
  later(61s);
  EXPECT_FALSE(get("/exp")->from_cache);
  EXPECT_EQ(server.count("/exp"), 2);
}

TEST_F(FetchTest, NoStoreIsReadableButNeverServedAgain) {
  server.route("/secret", {.body = "private", .headers = {{"Cache-Control", "no-store, max-age=600"}}});
  EXPECT_EQ(body_of(get("/secret")), "private");
  EXPECT_EQ(body_of(get("/secret")), "private");
  EXPECT_EQ(server.count("/secret"), 2);
  CacheStore store(cache + "/http");
  EXPECT_FALSE(fs::exists(store.meta_path(server.url("/secret"))));
  auto o = options();
  o.offline = true;
  auto offline = Fetcher(ctx, o).fetch({.url = server.url("/secret")});
  EXPECT_EQ(error_of(offline), "offline: no cached copy of " + server.url("/secret"));
}

TEST_F(FetchTest, DecodesGzipAndZstdContentEncoding) {
  std::string text;
  for (int i = 0; i < 2000; ++i) text += "package-" + std::to_string(i) + "\n";
  for (auto [path, enc, token] :
       {std::tuple{"/gz", Encoding::gzip, "gzip"}, std::tuple{"/zst", Encoding::zstd, "zstd"}}) {
    server.route(path, {.body = text, .encoding = enc});
    auto r = get(path);
    EXPECT_EQ(body_of(r), text) << path;
    auto seen = server.seen(path);
    ASSERT_EQ(seen.size(), 1u);
    EXPECT_TRUE(contains(seen[0].header("Accept-Encoding"), token)) << seen[0].header("Accept-Encoding");
    CacheStore store(cache + "/http");
    EXPECT_EQ(fs::file_size(store.body_path(server.url(path))), text.size());
  }
}

TEST_F(FetchTest, DecodesBrotliContentEncoding) {
  if (!test::have_brotli()) GTEST_SKIP() << "the tests were built without libbrotlienc (apt-get install libbrotli-dev)";
  std::string text(10000, 'b');
  server.route("/br", {.body = text, .encoding = Encoding::brotli});
  EXPECT_EQ(body_of(get("/br")), text);
  EXPECT_TRUE(contains(server.seen("/br")[0].header("Accept-Encoding"), "br"));
}

TEST_F(FetchTest, AZstdFileIsCachedByteForByte) {
  std::string json = "{\"packages\": {}}";
  std::string zst = test::encode(Encoding::zstd, json);
  server.route("/repodata.json.zst", {.body = zst, .headers = {{"Content-Type", "application/zstd"}}});
  auto r = get("/repodata.json.zst");
  std::string cached = body_of(r);
  EXPECT_EQ(cached, zst);
  std::string out(100, '\0');
  auto n = ZSTD_decompress(out.data(), out.size(), cached.data(), cached.size());
  ASSERT_FALSE(ZSTD_isError(n));
  out.resize(n);
  EXPECT_EQ(out, json);
}

// Corrupt contents are the consumer's failure: the fetcher hands over the bytes, the cache stays
// usable, and forget() lets the consumer download again.
TEST_F(FetchTest, CorruptJsonFailsInTheConsumerAndTheCacheStaysUsable) {
  server.route("/repodata.json", {.body = "{\"packages\": {", .etag = "\"bad\""});
  auto r = get("/repodata.json");
  EXPECT_TRUE(nlohmann::json::parse(body_of(r), nullptr, false).is_discarded());
  // Still there, still revalidated.
  auto again = get("/repodata.json");
  EXPECT_TRUE(again->revalidated);
  EXPECT_EQ(body_of(again), "{\"packages\": {");
  // The server is fixed; the consumer drops its copy and asks again.
  server.route("/repodata.json", {.body = "{\"packages\": {}}", .etag = "\"bad\""});
  auto f = fetcher();
  ASSERT_TRUE(f.forget(server.url("/repodata.json")).ok());
  auto fixed = f.fetch({.url = server.url("/repodata.json")});
  EXPECT_FALSE(fixed->revalidated);
  EXPECT_FALSE(nlohmann::json::parse(body_of(fixed), nullptr, false).is_discarded());
  EXPECT_TRUE(server.seen("/repodata.json")[2].header("If-None-Match").empty());
}

TEST_F(FetchTest, CorruptZstdFailsInTheConsumerAndTheCacheStaysUsable) {
  std::string zst = test::encode(Encoding::zstd, std::string(1000, 'z'));
  std::string corrupt = zst.substr(0, 8) + std::string(zst.size() - 8, '\x55');
  server.route("/broken.json.zst", {.body = corrupt, .headers = {{"Cache-Control", "max-age=60"}}});
  auto r = get("/broken.json.zst");
  std::string cached = body_of(r);
  EXPECT_EQ(cached, corrupt);
  std::string out(2000, '\0');
  EXPECT_TRUE(ZSTD_isError(ZSTD_decompress(out.data(), out.size(), cached.data(), cached.size())));
  auto again = get("/broken.json.zst");
  EXPECT_TRUE(again->from_cache);
  EXPECT_EQ(body_of(again), corrupt);
}

TEST_F(FetchTest, NotFoundIsAnErrorNamingTheUrlAndIsNotRetried) {
  auto r = get("/missing");
  EXPECT_EQ(error_of(r), server.url("/missing") + ": HTTP 404 Not Found");
  EXPECT_EQ(server.count("/missing"), 1);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().place, server.url("/missing"));
  EXPECT_EQ(r.error().what, "HTTP 404 Not Found");
  expect_no_temp_files();
}

TEST_F(FetchTest, MissingOkTurnsNotFoundIntoAnAnswerThatOfflineRemembers) {
  server.route("/gone", {.status = 410, .body = "gone"});
  auto r = get("/missing.zst", {.missing_ok = true});
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_FALSE(r->found);
  EXPECT_TRUE(r->body_path.empty());
  EXPECT_EQ(r->http_status, 404);
  auto gone = get("/gone", {.missing_ok = true});
  ASSERT_TRUE(gone.ok());
  EXPECT_FALSE(gone->found);

  later(2h);
  auto o = options();
  o.offline = true;
  auto offline = Fetcher(ctx, o).fetch({.url = server.url("/missing.zst"), .missing_ok = true});
  ASSERT_TRUE(offline.ok()) << offline.error().message;
  EXPECT_FALSE(offline->found);
  EXPECT_TRUE(offline->from_cache);
  ASSERT_EQ(ctx.warnings().size(), 1u);
  EXPECT_EQ(ctx.warnings()[0],
            "using the cached answer 'not found' for " + server.url("/missing.zst") + " from 2 h ago");
  // A request that does not allow "not found" is not answered by it.
  auto strict = Fetcher(ctx, o).fetch({.url = server.url("/missing.zst")});
  EXPECT_EQ(error_of(strict), "offline: no cached copy of " + server.url("/missing.zst"));
}

TEST_F(FetchTest, ARememberedNotFoundIsTrustedForMissingMaxAge) {
  Request r{.missing_ok = true, .missing_max_age_s = 3600};
  ASSERT_FALSE(get("/repodata.json.zst", r)->found);
  EXPECT_EQ(server.count("/repodata.json.zst"), 1);
  later(std::chrono::minutes(30));
  auto again = get("/repodata.json.zst", r);
  ASSERT_TRUE(again.ok());
  EXPECT_FALSE(again->found);
  EXPECT_TRUE(again->from_cache);
  EXPECT_EQ(server.count("/repodata.json.zst"), 1);  // not asked again
  // Without missing_max_age_s a "not found" with no freshness of its own is asked again, and
  // past the age it is asked again too: the server may have the file by now.
  EXPECT_FALSE(get("/repodata.json.zst", {.missing_ok = true})->found);
  EXPECT_EQ(server.count("/repodata.json.zst"), 2);
  later(std::chrono::hours(2));
  server.route("/repodata.json.zst", {.body = "now here"});
  EXPECT_EQ(body_of(get("/repodata.json.zst", r)), "now here");
  EXPECT_EQ(server.count("/repodata.json.zst"), 3);
}

TEST_F(FetchTest, SendsAcceptAndKeepsTheContentTypeWithTheBody) {
  const std::string json = "application/vnd.pypi.simple.v1+json";
  server.route("/simple/ninja/", {.body = "{}", .headers = {{"Content-Type", json}}, .etag = "\"1\""});
  Request r{.accept = json + ", text/html;q=0.01"};
  auto first = get("/simple/ninja/", r);
  ASSERT_TRUE(first.ok()) << first.error().message;
  EXPECT_EQ(first->content_type, json);
  EXPECT_EQ(server.seen("/simple/ninja/").back().header("accept"), json + ", text/html;q=0.01");
  // Revalidated (304 without the header) and offline, it is still known.
  auto again = get("/simple/ninja/", r);
  ASSERT_TRUE(again.ok());
  EXPECT_TRUE(again->revalidated);
  EXPECT_EQ(again->content_type, json);
  auto o = options();
  o.offline = true;
  auto offline = Fetcher(ctx, o).fetch({.url = server.url("/simple/ninja/")});
  ASSERT_TRUE(offline.ok());
  EXPECT_EQ(offline->content_type, json);
  // No Accept asked: none sent.
  server.route("/plain", {.body = "x"});
  ASSERT_TRUE(get("/plain").ok());
  EXPECT_EQ(server.seen("/plain").back().header("accept"), "*/*");
}

TEST_F(FetchTest, RetriesServerErrorsThenSucceeds) {
  server.route("/flaky", {.body = "at last", .fail_first = 2});
  EXPECT_EQ(body_of(get("/flaky")), "at last");
  EXPECT_EQ(server.count("/flaky"), 3);
  server.route("/busy", {.body = "ok", .fail_first = 1, .fail_status = 429});
  EXPECT_EQ(body_of(get("/busy")), "ok");
  EXPECT_EQ(server.count("/busy"), 2);
}

TEST_F(FetchTest, GivesUpOn500AfterTheRetriesAndKeepsTheCachedCopy) {
  server.route("/idx", {.body = "good copy", .etag = "\"1\""});
  ASSERT_TRUE(get("/idx").ok());
  server.route("/idx", {.body = "never", .etag = "\"2\"", .fail_first = 100});
  later(3h);
  auto start = std::chrono::steady_clock::now();
  auto r = get("/idx");
  EXPECT_EQ(error_of(r), server.url("/idx") +
                             ": HTTP 500 Internal Server Error (gave up after 3 tries); --offline would use "
                             "the cached copy from 3 h ago");
  EXPECT_EQ(server.count("/idx"), 4);
  // Backoff 10 ms then 20 ms.
  EXPECT_GE(std::chrono::steady_clock::now() - start, 30ms);
  auto o = options();
  o.offline = true;
  EXPECT_EQ(body_of(Fetcher(ctx, o).fetch({.url = server.url("/idx")})), "good copy");
  expect_no_temp_files();
}

TEST_F(FetchTest, AResetMidBodyLeavesTheOldEntryIntact) {
  server.route("/big", {.body = "old", .etag = "\"old\""});
  ASSERT_TRUE(get("/big").ok());
  CacheStore store(cache + "/http");
  std::string meta_before = test::read_file(store.meta_path(server.url("/big")));
  server.route("/big", {.body = std::string(200000, 'n'), .etag = "\"new\"", .reset_after = 5000});
  auto r = get("/big");
  std::string e = error_of(r);
  EXPECT_TRUE(e.starts_with(server.url("/big") + ": connection reset after ")) << e;
  EXPECT_TRUE(contains(e, " bytes (gave up after 3 tries)")) << e;
  EXPECT_EQ(server.count("/big"), 4);
  EXPECT_EQ(test::read_file(store.body_path(server.url("/big"))), "old");
  EXPECT_EQ(test::read_file(store.meta_path(server.url("/big"))), meta_before);
  expect_no_temp_files();
}

TEST_F(FetchTest, ATruncatedBodyIsAnErrorAndNeverCached) {
  server.route("/short", {.body = std::string(100, 's'), .truncate_after = 10});
  auto o = options();
  o.retries = 0;
  auto r = Fetcher(ctx, o).fetch({.url = server.url("/short")});
  EXPECT_EQ(error_of(r), server.url("/short") + ": body cut short: got 10 of 100 bytes");
  for (const auto& f : cache_files()) EXPECT_FALSE(f.ends_with(".body") || f.ends_with(".json")) << f;
  CacheStore store(cache + "/http");
  EXPECT_FALSE(store.read(server.url("/short")));
  EXPECT_FALSE(fs::exists(store.body_path(server.url("/short"))));
  expect_no_temp_files();
}

TEST_F(FetchTest, AStallPastTheTimeoutFailsAndSaysSo) {
  server.route("/stall", {.body = "late", .stall = 5s});
  auto o = options();
  o.retries = 0;
  auto start = std::chrono::steady_clock::now();
  auto r = Fetcher(ctx, o).fetch({.url = server.url("/stall")});
  EXPECT_EQ(error_of(r), server.url("/stall") + ": timed out, no data for 1 s after 0 bytes");
  EXPECT_LT(std::chrono::steady_clock::now() - start, 3s);
  server.route("/silent", {.body = "late", .answer_delay = 5s});
  EXPECT_EQ(error_of(Fetcher(ctx, o).fetch({.url = server.url("/silent")})),
            server.url("/silent") + ": timed out, no data for 1 s waiting for the answer");
  expect_no_temp_files();
}

// A server that trickles (2 bytes every 0.3 s: never a stall) is stopped at the run's deadline
// (issue 31: it kept a resolve waiting without end), is not tried again, and a later download of
// the same run is not started.
TEST_F(FetchTest, ATrickleIsStoppedAtTheRunsDeadline) {
  server.route("/trickle", {.body = std::string(400, 't'), .chunk_size = 2, .chunk_delay = 300ms});
  server.route("/next", {.body = "next"});
  auto o = options();
  o.deadline_s = 2;
  Fetcher f(ctx, o);
  auto start = std::chrono::steady_clock::now();
  auto r = f.fetch({.url = server.url("/trickle")});
  const std::string e = error_of(r);
  EXPECT_EQ(e.rfind(server.url("/trickle") + ": stopped after ", 0), 0u) << e;
  EXPECT_NE(e.find(" bytes: the downloads of this run took longer than 2 s in all (EXTDEPS_DOWNLOAD_DEADLINE)"),
            std::string::npos)
      << e;
  EXPECT_EQ(e.find("tries"), std::string::npos) << e;
  EXPECT_EQ(server.count("/trickle"), 1);
  EXPECT_GE(std::chrono::steady_clock::now() - start, 1500ms);
  EXPECT_EQ(error_of(f.fetch({.url = server.url("/next")})),
            server.url("/next") +
                ": not downloaded: the downloads of this run took longer than 2 s in all "
                "(EXTDEPS_DOWNLOAD_DEADLINE)");
  EXPECT_EQ(server.count("/next"), 0);
  expect_no_temp_files();
  // A new run has its own deadline.
  EXPECT_TRUE(Fetcher(ctx, o).fetch({.url = server.url("/next")}).ok());
}

// A full disk (here: a file size limit) stops the download with the file's name, and the old
// entry stays.
TEST_F(FetchTest, AWriteErrorNamesTheUrlAndTheFile) {
  server.route("/f", {.body = "small", .etag = "\"1\""});
  ASSERT_TRUE(get("/f").ok());
  server.route("/f", {.body = std::string(100000, 'f'), .etag = "\"2\""});
  auto old_handler = std::signal(SIGXFSZ, SIG_IGN);
  rlimit old_limit{};
  ::getrlimit(RLIMIT_FSIZE, &old_limit);
  rlimit small = old_limit;
  small.rlim_cur = 4096;
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &small), 0);
  auto r = get("/f");
  ::setrlimit(RLIMIT_FSIZE, &old_limit);
  std::signal(SIGXFSZ, old_handler);
  std::string e = error_of(r);
  EXPECT_TRUE(e.starts_with(server.url("/f") + ": cannot write " + cache + "/http/.tmp-")) << e;
  EXPECT_TRUE(e.ends_with(": File too large")) << e;
  EXPECT_EQ(server.count("/f"), 2);  // not retried
  EXPECT_EQ(body_of(get("/f", {.max_age_s = 3600})), "small");
  expect_no_temp_files();
}

TEST_F(FetchTest, ARefusedConnectionNamesTheUrl) {
  std::string url;
  {
    test::HttpServer gone;
    url = gone.url("/x");
  }
  auto o = options();
  o.retries = 1;
  auto r = Fetcher(ctx, o).fetch({.url = url});
  EXPECT_EQ(error_of(r), url + ": cannot connect (connection refused) (gave up after 2 tries)");
}

TEST_F(FetchTest, OfflineWithoutACachedCopyFails) {
  server.route("/x", {.body = "x"});
  auto o = options();
  o.offline = true;
  auto r = Fetcher(ctx, o).fetch({.url = server.url("/x")});
  EXPECT_EQ(error_of(r), "offline: no cached copy of " + server.url("/x"));
  EXPECT_EQ(server.count("/x"), 0);
}

TEST_F(FetchTest, OfflineUsesTheCachedCopyAndSaysHowOld) {
  server.route("/x", {.body = "cached", .etag = "\"x\""});
  ASSERT_TRUE(get("/x").ok());
  later(3h + 5min);
  auto o = options();
  o.offline = true;
  auto r = Fetcher(ctx, o).fetch({.url = server.url("/x")});
  EXPECT_EQ(body_of(r), "cached");
  EXPECT_TRUE(r->from_cache);
  EXPECT_EQ(r->fetched_at, now - 3h - 5min);
  ASSERT_EQ(ctx.warnings().size(), 1u);
  EXPECT_EQ(ctx.warnings()[0], "using the cached copy of " + server.url("/x") + " from 3 h ago");
  EXPECT_EQ(server.count("/x"), 1);
}

TEST_F(FetchTest, FileUrlsAreReadInPlace) {
  std::string dir = test::temp_dir() + "/a mirror";
  fs::create_directories(dir);
  std::ofstream(dir + "/repodata.json") << "{}";
  std::string encoded = "file://" + std::string(dir).replace(dir.find(' '), 1, "%20") + "/repodata.json";
  auto r = fetcher().fetch({.url = encoded});
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->body_path, dir + "/repodata.json");
  EXPECT_EQ(test::read_file(r->body_path), "{}");
  EXPECT_FALSE(fs::exists(cache + "/http"));  // nothing copied

  std::string missing = "file://" + test::temp_dir() + "/none.json";
  auto ok_missing = fetcher().fetch({.url = missing, .missing_ok = true});
  ASSERT_TRUE(ok_missing.ok());
  EXPECT_FALSE(ok_missing->found);
  EXPECT_EQ(error_of(fetcher().fetch({.url = missing})), missing + ": no such file");

  auto o = options();
  o.offline = true;  // a local mirror works offline
  EXPECT_TRUE(Fetcher(ctx, o).fetch({.url = encoded}).ok());
  // A space must be written %20, as in any URL.
  auto spaced = fetcher().fetch({.url = "file://" + dir + "/repodata.json"});
  ASSERT_FALSE(spaced.ok());
  EXPECT_EQ(spaced.error().code, ExitCode::bad_input);
}

TEST_F(FetchTest, BadUrlsAreBadInput) {
  auto ftp = fetcher().fetch({.url = "ftp://example.org/x"});
  ASSERT_FALSE(ftp.ok());
  EXPECT_EQ(ftp.error().code, ExitCode::bad_input);
  EXPECT_EQ(ftp.error().message,
            "ftp://example.org/x: unsupported URL scheme 'ftp' (extdeps fetches http, https and file URLs)");
  auto rel = fetcher().fetch({.url = "file:relative/x"});
  ASSERT_FALSE(rel.ok());
  EXPECT_EQ(rel.error().code, ExitCode::bad_input);
  EXPECT_TRUE(rel.error().message.starts_with("file:relative/x: "));
}

TEST_F(FetchTest, FollowsRedirectsAndCachesUnderTheAskedUrl) {
  server.route("/old", {.status = 301, .headers = {{"Location", "/new"}}});
  server.route("/new", {.body = "moved here", .headers = {{"Cache-Control", "max-age=60"}}});
  EXPECT_EQ(body_of(get("/old")), "moved here");
  EXPECT_TRUE(get("/old")->from_cache);
  EXPECT_EQ(server.count("/new"), 1);
}

TEST_F(FetchTest, A304ToAnUnconditionalRequestIsAnError) {
  server.route("/odd", {.status = 304});
  EXPECT_EQ(error_of(get("/odd")),
            server.url("/odd") + ": the server answered 304 Not Modified to a request that was not conditional");
}

TEST_F(FetchTest, ABodyWithoutMetadataReadsAsAbsent) {
  server.route("/p", {.body = "payload", .headers = {{"Cache-Control", "max-age=600"}}});
  ASSERT_TRUE(get("/p").ok());
  CacheStore store(cache + "/http");
  fs::remove(store.meta_path(server.url("/p")));
  auto o = options();
  o.offline = true;
  EXPECT_FALSE(Fetcher(ctx, o).fetch({.url = server.url("/p")}).ok());
  auto r = get("/p");
  EXPECT_FALSE(r->from_cache);
  EXPECT_EQ(server.count("/p"), 2);
  // A body of another size than the metadata says (a crash between writes) reads as absent too.
  std::ofstream(store.body_path(server.url("/p"))) << "payloa";
  EXPECT_FALSE(get("/p")->from_cache);
  EXPECT_EQ(server.count("/p"), 3);
}

TEST_F(FetchTest, FetchAllRunsTransfersAtOnceAndKeepsTheOrder) {
  std::vector<Request> requests;
  for (int i = 0; i < 6; ++i) {
    std::string path = "/slow" + std::to_string(i);
    server.route(path, {.body = "body " + std::to_string(i), .stall = 300ms});
    requests.push_back({.url = server.url(path)});
  }
  std::string local = test::temp_dir() + "/local.txt";
  std::ofstream(local) << "local";
  requests.push_back({.url = "file://" + local});
  requests.push_back({.url = server.url("/nope")});
  auto start = std::chrono::steady_clock::now();
  auto results = fetcher().fetch_all(requests);
  auto took = std::chrono::steady_clock::now() - start;
  ASSERT_EQ(results.size(), 8u);
  for (int i = 0; i < 6; ++i) EXPECT_EQ(body_of(results[i]), "body " + std::to_string(i));
  EXPECT_EQ(body_of(results[6]), "local");
  EXPECT_EQ(error_of(results[7]), server.url("/nope") + ": HTTP 404 Not Found");
  EXPECT_LT(took, 1200ms) << "six 300 ms transfers should overlap";
}

TEST_F(FetchTest, MaxParallelBoundsTheTransfers) {
  std::vector<Request> requests;
  for (int i = 0; i < 3; ++i) {
    std::string path = "/one" + std::to_string(i);
    server.route(path, {.body = "b", .stall = 200ms});
    requests.push_back({.url = server.url(path)});
  }
  auto o = options();
  o.max_parallel = 1;
  auto start = std::chrono::steady_clock::now();
  auto results = Fetcher(ctx, o).fetch_all(requests);
  EXPECT_GE(std::chrono::steady_clock::now() - start, 600ms);
  for (const auto& r : results) EXPECT_TRUE(r.ok());
}

TEST_F(FetchTest, TwoFetchersSharingTheCacheDoNotCorruptIt) {
  std::vector<Request> requests;
  for (int i = 0; i < 4; ++i) {
    std::string path = "/shared" + std::to_string(i);
    server.route(path, {.body = std::string(20000 + i, static_cast<char>('a' + i))});
    requests.push_back({.url = server.url(path)});
  }
  std::atomic<int> failures{0};
  auto work = [&] {
    Fetcher f(ctx, options());  // its own lock descriptor, like another process
    for (int round = 0; round < 15; ++round) {
      for (auto& r : f.fetch_all(requests)) {
        if (!r.ok()) ++failures;
        else if (test::read_file(r->body_path).size() < 20000) ++failures;
      }
    }
  };
  std::thread a(work), b(work);
  a.join();
  b.join();
  EXPECT_EQ(failures, 0);
  auto listing = CacheStore(cache + "/http").list();
  EXPECT_EQ(listing.entries.size(), 4u);
  EXPECT_TRUE(listing.orphans.empty());
  EXPECT_TRUE(listing.temps.empty());
  for (int i = 0; i < 4; ++i)
    EXPECT_EQ(test::read_file(CacheStore(cache + "/http").body_path(requests[i].url)),
              std::string(20000 + i, static_cast<char>('a' + i)));
}

TEST_F(FetchTest, ProxyVariablesAreHonoured) {
  server.route("/via-proxy", {.body = "proxied"});
  ASSERT_EQ(::setenv("http_proxy", server.url("").c_str(), 1), 0);
  auto r = fetcher().fetch({.url = "http://extdeps-test.invalid/via-proxy"});
  ::unsetenv("http_proxy");
  EXPECT_EQ(body_of(r), "proxied");
  auto seen = server.seen("/via-proxy");
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_EQ(seen[0].target, "http://extdeps-test.invalid/via-proxy");
}

TEST_F(FetchTest, TheCaBundleComesFromTheContext) {
  auto c = Context::for_test("/", {{"CURL_CA_BUNDLE", "/nonexistent/ca.pem"}});
  c.set_cache_dir(cache);
  auto o = options();
  o.retries = 0;
  std::string url = "https://127.0.0.1:" + std::to_string(server.port()) + "/tls";
  auto r = Fetcher(c, o).fetch({.url = url});
  std::string e = error_of(r);
  EXPECT_TRUE(e.starts_with(url + ": cannot use the CA bundle /nonexistent/ca.pem (from CURL_CA_BUNDLE)")) << e;
}

TEST_F(FetchTest, NoCacheFolderIsAClearError) {
  auto c = Context::for_test("/");
  Options o;
  auto r = Fetcher(c, o).fetch({.url = server.url("/x")});
  EXPECT_EQ(error_of(r),
            server.url("/x") + ": no cache folder to download into (set XDG_CACHE_HOME or pass --cache-dir)");
  std::string file = test::temp_dir() + "/file";
  std::ofstream(file) << "";
  o.cache_dir = file + "/http";
  EXPECT_TRUE(error_of(Fetcher(c, o).fetch({.url = server.url("/x")}))
                  .starts_with("cannot create the cache folder " + file + "/http: "));
}

TEST_F(FetchTest, TheProgressLineIsDrawnOnlyWhenAsked) {
  server.route("/slow", {.body = std::string(600, 'p'), .chunk_size = 100, .chunk_delay = 100ms});
  std::ostringstream bar;
  auto o = options();
  o.progress = true;
  o.progress_stream = &bar;
  ASSERT_TRUE(Fetcher(ctx, o).fetch({.url = server.url("/slow")}).ok());
  std::string drawn = bar.str();
  EXPECT_TRUE(contains(drawn, "\rdownloading 0/1  ")) << drawn;
  EXPECT_TRUE(contains(drawn, " of 600 B  slow")) << drawn;
  EXPECT_TRUE(drawn.ends_with("\r\033[K")) << drawn;
  EXPECT_EQ(drawn.find('\n'), std::string::npos);

  std::ostringstream quiet;
  o.progress = false;
  o.progress_stream = &quiet;
  o.cache_dir = test::temp_dir();
  ASSERT_TRUE(Fetcher(ctx, o).fetch({.url = server.url("/slow")}).ok());
  EXPECT_EQ(quiet.str(), "");
}

// fetch_all's `each` hears of every request once, as soon as its answer is final: the cache's
// answer before any transfer, a quick transfer before a slow one, and an error too; what it is
// given is what fetch_all returns. (The pypi crawl reads each page while the others travel.)
TEST_F(FetchTest, EachAnswerIsHandedOverAsSoonAsItIsFinal) {
  server.route("/fresh", {.body = "cached", .headers = {{"Cache-Control", "max-age=600"}}});
  server.route("/slow", {.body = "slow", .answer_delay = std::chrono::milliseconds(300)});
  server.route("/quick", {.body = "quick"});
  ASSERT_TRUE(get("/fresh").ok());
  std::vector<Request> requests(4);
  requests[0].url = server.url("/slow");
  requests[1].url = server.url("/quick");
  requests[2].url = server.url("/fresh");
  requests[3].url = server.url("/missing");
  std::vector<std::size_t> order;
  std::vector<std::string> seen(requests.size());
  auto results = fetcher().fetch_all(requests, [&](std::size_t i, const Result<Response>& r) {
    order.push_back(i);
    seen[i] = r.ok() ? r->body_path : "error: " + r.error().message;
  });
  ASSERT_EQ(results.size(), 4u);
  ASSERT_EQ(order.size(), 4u);
  EXPECT_EQ(std::set<std::size_t>(order.begin(), order.end()).size(), 4u) << "an index was handed over twice";
  EXPECT_EQ(order.front(), 2u);  // the cache answers before any transfer starts
  EXPECT_LT(std::find(order.begin(), order.end(), 1u), std::find(order.begin(), order.end(), 0u));
  for (std::size_t i = 0; i < results.size(); ++i)
    EXPECT_EQ(seen[i], results[i].ok() ? results[i]->body_path : "error: " + results[i].error().message) << i;
  EXPECT_FALSE(results[3].ok());
  EXPECT_EQ(body_of(results[0]), "slow");
  EXPECT_EQ(body_of(results[1]), "quick");
  EXPECT_EQ(body_of(results[2]), "cached");
}

}  // namespace
}  // namespace extdeps::fetch
