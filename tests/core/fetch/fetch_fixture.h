// What the fetcher tests share: a loopback server, a cache folder, a Context whose clock the
// test moves, and Options with short timeouts and backoff so failures are quick.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include "core/context/context.h"
#include "core/fetch/fetch.h"
#include "tests/support/http_server.h"
#include "tests/test_support.h"

namespace extdeps::fetch {

class FetchFixture : public ::testing::Test {
 protected:
  FetchFixture() {
    ctx.set_cache_dir(cache);
    ctx.set_clock([this] { return now; });
  }

  Options options() const {
    Options o;
    o.cache_dir = cache + "/http";
    o.connect_timeout_ms = 500;
    o.low_speed_time_s = 1;
    o.retries = 2;
    o.backoff_ms = 10;
    return o;
  }
  Fetcher fetcher() const { return Fetcher(ctx, options()); }

  Result<Response> get(const std::string& path, Request request = {}) {
    request.url = server.url(path);
    return fetcher().fetch(request);
  }

  void later(std::chrono::seconds s) { now += s; }

  // The names in the HTTP cache folder.
  std::vector<std::string> cache_files() const {
    std::vector<std::string> out;
    std::error_code ec;
    for (const auto& e : std::filesystem::directory_iterator(cache + "/http", ec))
      out.push_back(e.path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
  }
  // No temporary file left behind.
  void expect_no_temp_files() const {
    for (const auto& f : cache_files()) EXPECT_NE(f.rfind(".tmp-", 0), 0u) << "left behind: " << f;
  }

  test::HttpServer server;
  std::string cache = test::temp_dir();
  std::chrono::system_clock::time_point now =
      std::chrono::system_clock::time_point(std::chrono::seconds(1'700'000'000));
  Context ctx = Context::for_test("/");
};

inline bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace extdeps::fetch
