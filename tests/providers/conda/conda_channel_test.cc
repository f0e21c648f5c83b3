// The conda provider against a channel served on 127.0.0.1 (tests/support/http_server.h), built
// from conda-forge's real numpy subset (../shared/data/conda): which index files it asks for, and
// what every kind of failure leaves behind. As in the pipeline, prepare() downloads through a
// Fetcher and load() reads what it kept.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "core/fetch/fetch.h"
#include "providers/conda/conda_provider.h"
#include "tests/providers/conda/conda_test_support.h"
#include "tests/support/http_server.h"
#include "tests/test_support.h"

namespace fs = std::filesystem;

namespace extdeps::conda {
namespace {

using test::Collected;

constexpr size_t kSubsetRecords = 33;  // the numpy subset: 4 .tar.bz2 and 30 .conda, one stem in both

class CondaChannelTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto numpy = extdeps::test::shared_data("conda/conda-forge-numpy-linux-64.json");
    if (!numpy) GTEST_SKIP() << "../shared/data/conda is absent (no shared/ beside the checkout)";
    index_ = extdeps::test::read_file(*numpy);
    channel_ = extdeps::test::temp_dir();
    fs::create_directories(channel_ + "/linux-64");
    fs::create_directories(channel_ + "/noarch");
    write("linux-64/repodata.json.zst", extdeps::test::encode(extdeps::test::Encoding::zstd, index_));
    write("noarch/repodata.json", R"({"info": {"subdir": "noarch"}, "packages": {}, "packages.conda": {}})");
    server_.serve_dir("/forge", channel_);
    ctx_.set_cache_dir(cache_);
    ctx_.set_clock([this] { return now_; });
  }

  void write(const std::string& rel, const std::string& body) {
    std::ofstream(channel_ + "/" + rel, std::ios::binary) << body;
  }

  fetch::Options options(bool offline = false) const {
    fetch::Options o;
    o.cache_dir = cache_ + "/http";
    o.connect_timeout_ms = 500;
    o.low_speed_time_s = 1;
    o.retries = 2;
    o.backoff_ms = 10;
    o.offline = offline;
    return o;
  }

  // prepare() then load(), as a resolve does.
  Result<Collected> load(bool offline = false) {
    ProviderSettings settings;
    settings.managers = {"conda"};
    settings.options["channel"] = OptionValue{{server_.url("/forge")}, "--channel"};
    auto provider = make_provider(ctx_, settings);
    fetch::Fetcher fetcher(ctx_, options(offline));
    if (auto r = provider->prepare(ctx_, fetcher); !r.ok()) return r.error();
    Collected available, installed;
    if (auto r = provider->load(ctx_, available.sink(), installed.sink()); !r.ok()) return r.error();
    identity_ = provider->identity(ctx_).value().key;
    return available;
  }

  std::string url(const std::string& rel) const { return server_.url("/forge/" + rel); }
  void later(std::chrono::seconds s) { now_ += s; }

  std::string index_, channel_, identity_;
  std::string cache_ = extdeps::test::temp_dir();
  extdeps::test::HttpServer server_;
  std::chrono::system_clock::time_point now_{std::chrono::seconds(1'750'000'000)};
  Context ctx_ = Context::for_test("/", {{"CONDA_SUBDIR", "linux-64"}, {"PATH", ""}});
};

TEST_F(CondaChannelTest, ReadsTheZstdIndexAndRemembersThatNoarchHasOnlyJson) {
  auto first = load();
  ASSERT_TRUE(first.ok()) << first.error().message;
  EXPECT_EQ(first->records.size(), kSubsetRecords);
  const PackageRecord* numpy = first->find("numpy");
  ASSERT_NE(numpy, nullptr);
  EXPECT_EQ(numpy->origin, url("linux-64/numpy-1.26.4-py312head63a1_0.conda"));
  EXPECT_EQ(server_.count("/forge/linux-64/repodata.json.zst"), 1);
  EXPECT_EQ(server_.count("/forge/linux-64/repodata.json"), 0);  // the .zst was there
  EXPECT_EQ(server_.count("/forge/noarch/repodata.json.zst"), 1);
  EXPECT_EQ(server_.count("/forge/noarch/repodata.json"), 1);

  // An hour later: both indexes are revalidated (304), the missing .zst is not asked again.
  later(std::chrono::hours(1));
  std::string before = identity_;
  auto second = load();
  ASSERT_TRUE(second.ok()) << second.error().message;
  EXPECT_EQ(second->records.size(), kSubsetRecords);
  EXPECT_EQ(server_.count("/forge/noarch/repodata.json.zst"), 1);
  EXPECT_EQ(server_.count("/forge/noarch/repodata.json"), 2);
  EXPECT_EQ(server_.count("/forge/linux-64/repodata.json.zst"), 2);
  auto seen = server_.seen("/forge/linux-64/repodata.json.zst");
  EXPECT_FALSE(seen.back().header("if-none-match").empty());
  // A 304 keeps the cached body as it was: the .solv cache keyed on it stays valid.
  EXPECT_EQ(identity_, before);

  // A week later the server is asked for the .zst again: it may have one by now.
  later(std::chrono::hours(24 * 7));
  ASSERT_TRUE(load().ok());
  EXPECT_EQ(server_.count("/forge/noarch/repodata.json.zst"), 2);
}

TEST_F(CondaChannelTest, PlainJsonWhereTheServerHasNoZstd) {
  fs::remove(channel_ + "/linux-64/repodata.json.zst");
  write("linux-64/repodata.json", index_);
  auto r = load();
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->records.size(), kSubsetRecords);
  EXPECT_EQ(server_.count("/forge/linux-64/repodata.json.zst"), 1);
  EXPECT_EQ(server_.count("/forge/linux-64/repodata.json"), 1);
}

TEST_F(CondaChannelTest, ANoarchOnlyChannelIsFineAndNoChannelAtAllIsNamed) {
  fs::remove(channel_ + "/linux-64/repodata.json.zst");
  auto r = load();
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_TRUE(r->records.empty());

  fs::remove(channel_ + "/noarch/repodata.json");
  auto none = load();
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.error().code, ExitCode::environment);
  EXPECT_EQ(none.error().message, "channel " + server_.url("/forge") + " (" + server_.url("/forge") +
                                      ") is not a conda channel here: neither " + url("noarch/repodata.json.zst") +
                                      " nor " + url("noarch/repodata.json") + " exists");
}

TEST_F(CondaChannelTest, ServerErrorsAreRetried) {
  server_.route("/forge/linux-64/repodata.json.zst",
                {.body = extdeps::test::encode(extdeps::test::Encoding::zstd, index_), .fail_first = 2});
  auto r = load();
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->records.size(), kSubsetRecords);
  EXPECT_EQ(server_.count("/forge/linux-64/repodata.json.zst"), 3);
}

// A failed download names the URL and leaves the copy of the last good run in place, which
// --offline then uses.
TEST_F(CondaChannelTest, FailuresNameTheUrlAndKeepTheLastGoodCopy) {
  ASSERT_TRUE(load().ok());
  const std::string zst = url("linux-64/repodata.json.zst");
  const std::string body = extdeps::test::encode(extdeps::test::Encoding::zstd, index_);
  struct Case {
    const char* what;
    extdeps::test::Route route;
    std::string expect;
  };
  std::vector<Case> cases = {
      {"500 every time", {.body = body, .fail_first = 100}, zst + ": HTTP 500"},
      {"a reset mid-body", {.body = body, .reset_after = 100}, zst + ": "},
      {"a truncated body", {.body = body, .truncate_after = 100}, zst + ": "},
      {"a stall past the timeout", {.body = body, .stall = std::chrono::milliseconds(2500)}, zst + ": "},
      {"not found", {.status = 404, .body = "gone"}, ""},
  };
  for (auto& c : cases) {
    SCOPED_TRACE(c.what);
    later(std::chrono::hours(1));
    server_.route("/forge/linux-64/repodata.json.zst", c.route);
    auto r = load();
    if (c.expect.empty()) {
      // A .zst that disappears: the plain .json is asked for, which is not there either.
      ASSERT_TRUE(r.ok()) << r.error().message;
      EXPECT_TRUE(r->records.empty());
      continue;
    }
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, ExitCode::environment);
    EXPECT_EQ(r.error().message.rfind(c.expect, 0), 0u) << r.error().message;
    EXPECT_NE(r.error().message.find("--offline would use the cached copy"), std::string::npos) << r.error().message;
    // The cache still holds the good copy.
    auto offline = load(/*offline=*/true);
    ASSERT_TRUE(offline.ok()) << offline.error().message;
    EXPECT_EQ(offline->records.size(), kSubsetRecords);
  }
  for (const auto& e : fs::directory_iterator(cache_ + "/http"))
    EXPECT_NE(e.path().filename().string().rfind(".tmp-", 0), 0u) << "left behind: " << e.path();
}

TEST_F(CondaChannelTest, ADamagedIndexNamesTheUrlAndIsDownloadedAgainNextTime) {
  const std::string zst = url("linux-64/repodata.json.zst");
  struct Case {
    const char* what;
    std::string body;
    std::string expect;
  };
  std::string cut = index_.substr(0, 5000);
  std::vector<Case> cases = {
      {"corrupt zstd", "\x28\xb5\x2f\xfd garbage that is not zstd at all",
       zst + ": corrupt zstd data at byte offset 5 (expected a valid zstd stream; "},
      {"corrupt JSON", extdeps::test::encode(extdeps::test::Encoding::zstd, "{\"packages\": {\"a\": ]}"),
       zst + ": unexpected ']' at byte offset 19 of the decompressed data (expected a JSON value)"},
      {"JSON cut short", extdeps::test::encode(extdeps::test::Encoding::zstd, cut),
       zst + ": data ends early at byte offset 5000 of the decompressed data"},
  };
  int asked = 0;
  for (auto& c : cases) {
    SCOPED_TRACE(c.what);
    write("linux-64/repodata.json.zst", c.body);
    auto r = load();
    ++asked;
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, ExitCode::environment);
    EXPECT_EQ(r.error().message.rfind(c.expect, 0), 0u) << r.error().message;
    EXPECT_NE(r.error().message.find("(the cached copy was removed; the next run downloads it again)"),
              std::string::npos)
        << r.error().message;
    // Nothing of it is served again, even offline; a repaired index is downloaded in full.
    EXPECT_FALSE(load(/*offline=*/true).ok());
    write("linux-64/repodata.json.zst", extdeps::test::encode(extdeps::test::Encoding::zstd, index_));
    auto fixed = load();
    ++asked;
    ASSERT_TRUE(fixed.ok()) << fixed.error().message;
    EXPECT_EQ(fixed->records.size(), kSubsetRecords);
    EXPECT_EQ(server_.count("/forge/linux-64/repodata.json.zst"), asked);
    EXPECT_TRUE(server_.seen("/forge/linux-64/repodata.json.zst").back().header("if-none-match").empty());
    later(std::chrono::hours(1));
  }
}

TEST_F(CondaChannelTest, OfflineWithoutACopyFailsNamingTheUrl) {
  auto r = load(/*offline=*/true);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, "offline: no cached copy of " + url("linux-64/repodata.json.zst"));
  EXPECT_EQ(server_.count("/forge/linux-64/repodata.json.zst"), 0);
}

}  // namespace
}  // namespace extdeps::conda
