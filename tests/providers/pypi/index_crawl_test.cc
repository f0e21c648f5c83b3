// The crawl of a PEP 691 index served on 127.0.0.1 (tests/data/pypi: NVIDIA's real wheel file
// names), round after round as metadata names new projects, and what failures leave behind.
#include "providers/pypi/index_crawl.h"

#include <gtest/gtest.h>

#include <map>

#include "tests/providers/pypi/pypi_index_server.h"

namespace extdeps::pypi {
namespace {

class PypiCrawlTest : public ::testing::Test {
 protected:
  void SetUp() override {
    testing::serve_index(server_);
    ctx_.set_clock([this] { return now_; });
  }

  fetch::Options options() const {
    fetch::Options o;
    o.cache_dir = cache_ + "/http";
    o.connect_timeout_ms = 500;
    o.low_speed_time_s = 1;
    o.retries = 2;
    o.backoff_ms = 10;
    return o;
  }

  CrawlInput input(std::vector<std::string> roots, std::pair<int, int> glibc = {2, 36}) const {
    TagTarget t;
    t.major = 3;
    t.minor = 11;
    t.abi = "cp311";
    t.arch = "x86_64";
    CrawlInput in;
    in.roots = std::move(roots);
    in.index_urls = {server_.url("/simple")};
    in.tags = compatible_tags(t);
    in.python_version = "3.11.2";
    in.env = {{"python_version", "3.11"}, {"platform_system", "Linux"}, {"sys_platform", "linux"},
              {"platform_machine", "x86_64"}};
    in.glibc = glibc;
    return in;
  }

  Result<CrawlResult> run(const CrawlInput& in) {
    fetch::Fetcher f(ctx_, options());
    return crawl(f, in);
  }

  // name -> "version:platform" of every candidate
  static std::map<std::string, std::vector<std::string>> summary(const CrawlResult& r) {
    std::map<std::string, std::vector<std::string>> out;
    for (const auto& c : r.candidates) out[c.name].push_back(c.version + ":" + c.platform);
    return out;
  }

  test::HttpServer server_;
  std::string cache_ = test::temp_dir();
  std::chrono::system_clock::time_point now_{std::chrono::seconds(1'760'000'000)};
  Context ctx_ = Context::for_test("/");
};

TEST_F(PypiCrawlTest, FollowsRequiresDistAndChoosesOneWheelPerVersion) {
  auto r = run(input({"nvidia-cudnn-cu12"}));
  ASSERT_TRUE(r.ok()) << r.error().message;
  using V = std::vector<std::string>;
  auto s = summary(*r);
  EXPECT_EQ(s["nvidia-cudnn-cu12"], (V{"8.9.2.26:manylinux1_x86_64", "9.1.0.70:manylinux2014_x86_64",
                                       "9.5.1.17:manylinux_2_28_x86_64"}));
  // 12.6.3.3 is yanked; the aarch64 and Windows wheels are not for this machine.
  EXPECT_EQ(s["nvidia-cublas-cu12"], (V{"12.1.3.1:manylinux1_x86_64", "12.4.5.8:manylinux2014_x86_64",
                                        "12.6.4.1:manylinux_2_17_x86_64"}));
  EXPECT_EQ(s.size(), 2u);
  EXPECT_EQ(r->pages, 2);
  for (const auto& c : r->candidates) {
    EXPECT_TRUE(c.metadata_known) << c.filename;
    EXPECT_EQ(c.url, server_.url("/packages/" + c.filename));
  }
  EXPECT_EQ(r->candidates[0].requires_dist, std::vector<std::string>{"nvidia-cublas-cu12"});
  EXPECT_EQ(r->candidates[2].glibc, std::make_pair(2, 28));
  EXPECT_EQ(server_.count("/simple/nvidia-cudnn-cu12/"), 1);
  EXPECT_EQ(server_.count("/simple/nvidia-cublas-cu12/"), 1);
  EXPECT_EQ(server_.count("/packages/nvidia_cudnn_cu12-9.1.0.70-py3-none-manylinux2014_x86_64.whl.metadata"), 1);
  EXPECT_EQ(server_.seen("/simple/nvidia-cudnn-cu12/").back().header("accept"), std::string(kAccept));

  // Again an hour later: pages are revalidated (304), metadata, which never changes, is not asked.
  now_ += std::chrono::hours(1);
  auto again = run(input({"nvidia-cudnn-cu12"}));
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(summary(*again), s);
  EXPECT_EQ(server_.count("/simple/nvidia-cudnn-cu12/"), 2);
  EXPECT_EQ(server_.seen("/simple/nvidia-cudnn-cu12/").back().header("if-none-match"), "\"nvidia-cudnn-cu12-1\"");
  EXPECT_EQ(server_.count("/packages/nvidia_cudnn_cu12-9.1.0.70-py3-none-manylinux2014_x86_64.whl.metadata"), 1);
}

TEST_F(PypiCrawlTest, AWheelThisGlibcRunsIsPreferredAndOneItDoesNotIsKeptWithItsNeed) {
  // glibc 2.17: every wheel of cuDNN 9.5 needs 2.28, so that version keeps its only one and
  // its need; the solve then says why it cannot be installed.
  auto r = run(input({"nvidia-cudnn-cu12"}, {2, 17}));
  ASSERT_TRUE(r.ok()) << r.error().message;
  for (const auto& c : r->candidates)
    if (c.version == "9.5.1.17") {
      EXPECT_EQ(c.glibc, std::make_pair(2, 28));
    }
}

TEST_F(PypiCrawlTest, TheHtmlPageOfAnIndexWithoutPep691GivesTheSame) {
  auto json = run(input({"nvidia-cudnn-cu12"}));
  ASSERT_TRUE(json.ok());
  test::HttpServer other;
  testing::serve_index(other);
  testing::serve_html(other, "nvidia-cudnn-cu12");
  CrawlInput in = input({"nvidia-cudnn-cu12"});
  in.index_urls = {other.url("/simple")};
  fetch::Fetcher f(ctx_, options());
  auto html = crawl(f, in);
  ASSERT_TRUE(html.ok()) << html.error().message;
  auto a = summary(*json), b = summary(*html);
  EXPECT_EQ(a, b);
}

TEST_F(PypiCrawlTest, AProjectNoIndexHasHasNoCandidatesAndExtraIndexesAddTheirs) {
  auto r = run(input({"no-such-project"}));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_TRUE(r->candidates.empty());
  EXPECT_EQ(r->pages, 0);

  // An extra index with a newer cuDNN.
  test::HttpServer extra;
  test::Route page;
  page.body = R"({"meta": {"api-version": "1.0"}, "name": "nvidia-cudnn-cu12", "files": [
    {"filename": "nvidia_cudnn_cu12-9.6.0.74-py3-none-manylinux2014_x86_64.whl",
     "url": "https://files.example/nvidia_cudnn_cu12-9.6.0.74-py3-none-manylinux2014_x86_64.whl",
     "hashes": {}, "requires-python": ">=3.12"},
    {"filename": "nvidia_cudnn_cu12-9.6.0.75-py3-none-manylinux2014_x86_64.whl",
     "url": "nvidia_cudnn_cu12-9.6.0.75-py3-none-manylinux2014_x86_64.whl", "hashes": {}}]})";
  page.headers = {{"Content-Type", "application/vnd.pypi.simple.v1+json"}};
  extra.route("/x/nvidia-cudnn-cu12/", page);
  CrawlInput in = input({"nvidia-cudnn-cu12"});
  in.index_urls.push_back(extra.url("/x/"));
  fetch::Fetcher f(ctx_, options());
  auto both = crawl(f, in);
  ASSERT_TRUE(both.ok()) << both.error().message;
  auto s = summary(*both);
  // 9.6.0.74 wants Python 3.12; 9.6.0.75 has no metadata: its dependencies are unknown.
  EXPECT_EQ(s["nvidia-cudnn-cu12"].back(), "9.6.0.75:manylinux2014_x86_64");
  EXPECT_EQ(both->no_metadata, std::vector<std::string>{"nvidia-cudnn-cu12"});
  EXPECT_EQ(both->candidates[3].url, extra.url("/x/nvidia-cudnn-cu12/nvidia_cudnn_cu12-9.6.0.75-py3-none-manylinux2014_x86_64.whl"));
}

TEST_F(PypiCrawlTest, FailuresNameTheUrl) {
  const std::string page = server_.url("/simple/nvidia-cudnn-cu12/");
  // 500 twice, then the page: retried.
  test::Route flaky;
  flaky.body = test::read_file(test::data_path("pypi/simple/nvidia-cudnn-cu12/index.json"));
  flaky.headers = {{"Content-Type", "application/vnd.pypi.simple.v1+json"}};
  flaky.fail_first = 2;
  server_.route("/simple/nvidia-cudnn-cu12/", flaky);
  ASSERT_TRUE(run(input({"nvidia-cudnn-cu12"})).ok());
  EXPECT_EQ(server_.count("/simple/nvidia-cudnn-cu12/"), 3);

  // Not JSON although it says so: named with its offset, and not kept.
  test::Route bad;
  bad.body = R"({"files": [}")";
  bad.headers = {{"Content-Type", "application/vnd.pypi.simple.v1+json"}};
  server_.route("/simple/nvidia-cudnn-cu12/", bad);
  auto r = run(input({"nvidia-cudnn-cu12"}));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message.rfind(page + ": not valid JSON at byte offset 11 (", 0), 0u) << r.error().message;
  EXPECT_NE(r.error().message.find("(the cached copy was removed; the next run downloads it again)"), std::string::npos);
  fetch::Options off = options();
  off.offline = true;
  fetch::Fetcher offline(ctx_, off);
  EXPECT_EQ(crawl(offline, input({"nvidia-cudnn-cu12"})).error().message, "offline: no cached copy of " + page);

  // A stall past the timeout.
  test::Route stall = flaky;
  stall.fail_first = 0;
  stall.stall = std::chrono::milliseconds(2500);
  server_.route("/simple/nvidia-cudnn-cu12/", stall);
  auto s = run(input({"nvidia-cudnn-cu12"}));
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().message.rfind(page + ": ", 0), 0u) << s.error().message;
  EXPECT_EQ(s.error().code, ExitCode::environment);

  // Metadata that fails every time (asked anew: a fresh cache, since metadata is kept a year).
  cache_ = test::temp_dir();
  server_.route("/simple/nvidia-cudnn-cu12/", flaky);
  const std::string meta = "/packages/nvidia_cudnn_cu12-9.1.0.70-py3-none-manylinux2014_x86_64.whl.metadata";
  server_.route(meta, {.status = 503, .body = "down"});
  auto m = run(input({"nvidia-cudnn-cu12"}));
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.error().message, server_.url(meta) + ": HTTP 503 Service Unavailable (gave up after 3 tries)");
}


// A page with a number out of range threw out of the crawl ("internal error"), so its body stayed
// in the cache: now it is a damaged page, named with its offset, and not kept.
TEST_F(PypiCrawlTest, APageWithANumberOutOfRangeIsNotKept) {
  const std::string page = server_.url("/simple/nvidia-cudnn-cu12/");
  test::Route bad;
  bad.body = R"({"meta": {"api-version": "1.1"}, "files": [1e999]})";
  bad.headers = {{"Content-Type", "application/vnd.pypi.simple.v1+json"}};
  server_.route("/simple/nvidia-cudnn-cu12/", bad);
  auto r = run(input({"nvidia-cudnn-cu12"}));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ExitCode::environment);
  EXPECT_EQ(r.error().message, page + ": not valid JSON at byte offset 43 (number overflow parsing '1e999'; expected a "
                                      "PEP 691 project page) (the cached copy was removed; the next run downloads it again)");
  fetch::Options off = options();
  off.offline = true;
  fetch::Fetcher offline(ctx_, off);
  EXPECT_EQ(crawl(offline, input({"nvidia-cudnn-cu12"})).error().message, "offline: no cached copy of " + page);
}

}  // namespace
}  // namespace extdeps::pypi
