// The crawl of a PEP 691 index served on 127.0.0.1 (tests/data/pypi: NVIDIA's real wheel file
// names), round after round as metadata names new projects, and what failures leave behind.
#include "providers/pypi/index_crawl.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>

#include "core/util/sealed_file.h"
#include "providers/pypi/crawl_memo.h"
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
    in.env = {{"python_version", "3.11"},
              {"platform_system", "Linux"},
              {"sys_platform", "linux"},
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
  EXPECT_EQ(s["nvidia-cudnn-cu12"],
            (V{"8.9.2.26:manylinux1_x86_64", "9.1.0.70:manylinux2014_x86_64", "9.5.1.17:manylinux_2_28_x86_64"}));
  // 12.6.3.3 is yanked; the aarch64 and Windows wheels are not for this machine.
  EXPECT_EQ(s["nvidia-cublas-cu12"],
            (V{"12.1.3.1:manylinux1_x86_64", "12.4.5.8:manylinux2014_x86_64", "12.6.4.1:manylinux_2_17_x86_64"}));
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
  EXPECT_EQ(both->candidates[3].url,
            extra.url("/x/nvidia-cudnn-cu12/nvidia_cudnn_cu12-9.6.0.75-py3-none-manylinux2014_x86_64.whl"));
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
  EXPECT_NE(r.error().message.find("(the cached copy was removed; the next run downloads it again)"),
            std::string::npos);
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
  EXPECT_EQ(r.error().message,
            page +
                ": not valid JSON at byte offset 43 (number overflow parsing '1e999'; expected a "
                "PEP 691 project page) (the cached copy was removed; the next run downloads it again)");
  fetch::Options off = options();
  off.offline = true;
  fetch::Fetcher offline(ctx_, off);
  EXPECT_EQ(crawl(offline, input({"nvidia-cudnn-cu12"})).error().message, "offline: no cached copy of " + page);
}

// Everything a crawl's result holds, as text, to compare two results whole.
std::string whole(const CrawlResult& r) {
  std::string out = "pages " + std::to_string(r.pages) + "\n";
  for (const auto& c : r.candidates) {
    out += c.name + " " + c.version + " " + c.filename + " " + c.url + " " + c.platform + " " +
           (c.glibc ? std::to_string(c.glibc->first) + "." + std::to_string(c.glibc->second) : "-") + " " +
           (c.metadata_known ? "known" : "unknown") + ":";
    for (const auto& d : c.requires_dist) out += " " + d;
    out += "\n";
  }
  for (std::size_t i = 0; i < r.fetched.size(); ++i) out += r.fetched[i] + " " + r.bodies[i] + " " + r.stamps[i] + "\n";
  for (const auto& n : r.no_metadata) out += "no metadata " + n + "\n";
  return out;
}

std::vector<std::string> memo_files(const std::string& dir) {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(dir, ec)) out.push_back(e.path().string());
  return out;
}

// The memo (crawl_memo.h): a second crawl of the same input asks each page once more, all in one
// round, and when none changed gives the first crawl's result without reading a page or any
// metadata (here: the metadata's cached copies are gone, and nothing downloads them again). A
// page that changed makes a whole crawl, which asks no page twice and sees the change.
TEST_F(PypiCrawlTest, AMemoIsTheResultWhileEveryPageComesBackUnchanged) {
  CrawlInput in = input({"nvidia-cudnn-cu12"});
  in.memo_dir = cache_ + "/pypi/crawls";
  auto first = run(in);
  ASSERT_TRUE(first.ok()) << first.error().message;
  ASSERT_EQ(memo_files(in.memo_dir).size(), 1u);
  EXPECT_EQ(memo_files(in.memo_dir)[0], memo_path(in.memo_dir, memo_key(in)));
  const std::string metadata = "/packages/nvidia_cudnn_cu12-9.1.0.70-py3-none-manylinux2014_x86_64.whl.metadata";
  EXPECT_EQ(server_.count(metadata), 1);
  // The same result as a crawl without a memo.
  CrawlInput plain = input({"nvidia-cudnn-cu12"});
  auto without = run(plain);
  ASSERT_TRUE(without.ok());
  EXPECT_EQ(whole(*without), whole(*first));

  now_ += std::chrono::hours(1);
  for (const auto& f : first->fetched)
    if (f.ends_with(".metadata")) ASSERT_TRUE(fetch::Fetcher(ctx_, options()).forget(f).ok());
  auto second = run(in);
  ASSERT_TRUE(second.ok()) << second.error().message;
  EXPECT_EQ(whole(*second), whole(*first));
  EXPECT_EQ(server_.count("/simple/nvidia-cudnn-cu12/"), 3);
  EXPECT_EQ(server_.count("/simple/nvidia-cublas-cu12/"), 3);
  EXPECT_EQ(server_.seen("/simple/nvidia-cublas-cu12/").back().header("if-none-match"), "\"nvidia-cublas-cu12-1\"");
  EXPECT_EQ(server_.count(metadata), 1);

  // cuBLAS 12.6.4.1 is 12.6.4.0 on its page now: a whole crawl, each page asked once.
  test::Route changed;
  changed.body = test::read_file(test::data_path("pypi/simple/nvidia-cublas-cu12/index.json"));
  for (std::size_t at; (at = changed.body.find("12.6.4.1")) != std::string::npos;)
    changed.body.replace(at, 8, "12.6.4.0");
  changed.headers = {{"Content-Type", std::string(kJsonType)}};
  changed.etag = "\"nvidia-cublas-cu12-2\"";
  server_.route("/simple/nvidia-cublas-cu12/", changed);
  auto third = run(in);
  ASSERT_TRUE(third.ok()) << third.error().message;
  EXPECT_EQ(server_.count("/simple/nvidia-cudnn-cu12/"), 4);
  EXPECT_EQ(server_.count("/simple/nvidia-cublas-cu12/"), 4);
  using V = std::vector<std::string>;
  EXPECT_EQ(summary(*third)["nvidia-cublas-cu12"],
            (V{"12.1.3.1:manylinux1_x86_64", "12.4.5.8:manylinux2014_x86_64", "12.6.4.0:manylinux_2_17_x86_64"}));
  // And the memo now holds that.
  auto fourth = run(in);
  ASSERT_TRUE(fourth.ok());
  EXPECT_EQ(whole(*fourth), whole(*third));
  EXPECT_EQ(server_.count("/simple/nvidia-cublas-cu12/"), 5);
}

// Another input (here another glibc) is another memo; a damaged memo is read as none and
// rewritten by the crawl.
TEST_F(PypiCrawlTest, AMemoIsOnlyForItsOwnInputAndNeverTrustedDamaged) {
  CrawlInput new_glibc = input({"nvidia-cudnn-cu12"});
  new_glibc.memo_dir = cache_ + "/pypi/crawls";
  CrawlInput old_glibc = input({"nvidia-cudnn-cu12"}, {2, 17});
  old_glibc.memo_dir = new_glibc.memo_dir;
  EXPECT_NE(memo_key(new_glibc), memo_key(old_glibc));
  auto a = run(new_glibc);
  auto b = run(old_glibc);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(memo_files(new_glibc.memo_dir).size(), 2u);
  std::string path = memo_path(new_glibc.memo_dir, memo_key(new_glibc));
  ASSERT_TRUE(read_memo(path, memo_key(new_glibc)));
  EXPECT_FALSE(read_memo(path, memo_key(old_glibc)));
  // One byte changed in the body: refused by its checksum; the crawl is whole and right.
  std::string bytes = test::read_file(path);
  bytes[bytes.size() / 2] ^= 0x20;
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
  EXPECT_FALSE(read_memo(path, memo_key(new_glibc)));
  auto again = run(new_glibc);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(summary(*again), summary(*a));
  EXPECT_TRUE(read_memo(path, memo_key(new_glibc)));
  // A body whose seal is right but whose parts are not (cut anywhere, or a count too large) is
  // refused by the reader itself.
  std::string body(*sealed::unseal("pypc", test::read_file(path)));
  std::string probe = path + ".probe";
  for (std::size_t cut = 0; cut < body.size(); cut += 1 + cut / 8) {
    std::ofstream(probe, std::ios::binary | std::ios::trunc) << sealed::seal("pypc", body.substr(0, cut));
    EXPECT_FALSE(read_memo(probe, memo_key(new_glibc))) << "cut at " << cut;
  }
  // The count of pages, after the key ("<length>:<key>"), made larger than the file could hold.
  std::string huge = body;
  std::size_t pages_at = std::to_string(memo_key(new_glibc).size()).size() + 1 + memo_key(new_glibc).size();
  huge.replace(pages_at, huge.find(';', pages_at) - pages_at, "99999999");
  std::ofstream(probe, std::ios::binary | std::ios::trunc) << sealed::seal("pypc", huge);
  EXPECT_FALSE(read_memo(probe, memo_key(new_glibc)));
  std::ofstream(probe, std::ios::binary | std::ios::trunc) << sealed::seal("pypc", body);
  EXPECT_TRUE(read_memo(probe, memo_key(new_glibc)));
  // Cut short: the same.
  bytes = test::read_file(path);
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes.substr(0, bytes.size() - 10);
  EXPECT_FALSE(read_memo(path, memo_key(new_glibc)));
  ASSERT_TRUE(run(new_glibc).ok());
  EXPECT_TRUE(read_memo(path, memo_key(new_glibc)));
}

// A file: index is a folder anyone may edit: a metadata file changed in place (its page not)
// makes the next crawl read it again.
TEST_F(PypiCrawlTest, AMemoOfAFileIndexSeesItsMetadataEdited) {
  namespace fs = std::filesystem;
  std::string root = test::temp_dir();
  fs::create_directories(root + "/simple/nvidia-cudnn-cu12");
  fs::copy_file(test::data_path("pypi/simple/nvidia-cudnn-cu12/index.html"),
                root + "/simple/nvidia-cudnn-cu12/index.html");
  fs::copy(test::data_path("pypi/packages"), root + "/packages");
  CrawlInput in = input({"nvidia-cudnn-cu12"});
  in.index_urls = {"file://" + root + "/simple"};
  in.memo_dir = cache_ + "/pypi/crawls";
  auto first = run(in);
  ASSERT_TRUE(first.ok()) << first.error().message;
  auto requires_of = [](const CrawlResult& r, const std::string& version) {
    for (const auto& c : r.candidates)
      if (c.version == version) return c.requires_dist;
    return std::vector<std::string>{"(no such candidate)"};
  };
  EXPECT_EQ(requires_of(*first, "9.1.0.70"), std::vector<std::string>{"nvidia-cublas-cu12"});
  ASSERT_TRUE(read_memo(memo_path(in.memo_dir, memo_key(in)), memo_key(in)));
  std::string meta = root + "/packages/nvidia_cudnn_cu12-9.1.0.70-py3-none-manylinux2014_x86_64.whl.metadata";
  std::string text = test::read_file(meta);
  text.replace(text.find("Requires-Dist: nvidia-cublas-cu12"), 33, "Requires-Dist: nvidia-cublas-cu12>=12.4");
  std::ofstream(meta, std::ios::trunc) << text;
  fs::last_write_time(meta, fs::last_write_time(meta) + std::chrono::seconds(2));
  auto second = run(in);
  ASSERT_TRUE(second.ok()) << second.error().message;
  EXPECT_EQ(requires_of(*second, "9.1.0.70"), std::vector<std::string>{"nvidia-cublas-cu12>=12.4"});
}

}  // namespace
}  // namespace extdeps::pypi
