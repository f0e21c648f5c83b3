#include "core/fetch/http_headers.h"

#include <gtest/gtest.h>

#include "core/fetch/progress.h"

// Designated initializers leave the other fields at their defaults on purpose; GCC 12 warns.
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

namespace extdeps::fetch {
namespace {

TEST(FetchHeadersTest, CacheControlDirectives) {
  auto cc = parse_cache_control("public, Max-Age=600, no-transform");
  EXPECT_EQ(cc.max_age_s, 600);
  EXPECT_FALSE(cc.no_store);
  EXPECT_FALSE(cc.no_cache);
  EXPECT_EQ(parse_cache_control("max-age=\"30\"").max_age_s, 30);
  EXPECT_EQ(parse_cache_control("max-age=soon").max_age_s, 0);  // malformed: stale, not forever
  EXPECT_EQ(parse_cache_control("max-age=-5").max_age_s, 0);
  EXPECT_TRUE(parse_cache_control("No-Store").no_store);
  EXPECT_TRUE(parse_cache_control("private, no-cache").no_cache);
  EXPECT_FALSE(parse_cache_control("").max_age_s);
}

ResponseHeaders headers(std::initializer_list<const char*> lines) {
  ResponseHeaders h;
  for (const char* l : lines) h.add_line(std::string(l) + "\r\n");
  return h;
}

TEST(FetchHeadersTest, ReadsStatusValidatorsAndLength) {
  auto h = headers({"HTTP/1.1 503 Service Unavailable", "ETag: \"abc\"", "last-modified: Mon, 01 Jan 2024 00:00:00 GMT",
                    "Content-Length: 42", "Content-Encoding: ZSTD", "Age: 7"});
  EXPECT_EQ(h.status, 503);
  EXPECT_EQ(h.reason, "Service Unavailable");
  EXPECT_EQ(h.etag, "\"abc\"");
  EXPECT_EQ(h.last_modified, "Mon, 01 Jan 2024 00:00:00 GMT");
  EXPECT_EQ(h.content_length, 42u);
  EXPECT_EQ(h.content_encoding, "zstd");
  EXPECT_EQ(h.age_s, 7);
}

TEST(FetchHeadersTest, ANewStatusLineForgetsTheRedirectsHeaders) {
  auto h = headers({"HTTP/1.1 301 Moved Permanently", "ETag: \"old\"", "Cache-Control: max-age=9", "HTTP/2 200",
                    "Content-Length: 3"});
  EXPECT_EQ(h.status, 200);
  EXPECT_EQ(h.reason, "");
  EXPECT_EQ(h.etag, "");
  EXPECT_FALSE(h.lifetime_s());
}

TEST(FetchHeadersTest, Lifetime) {
  EXPECT_EQ(headers({"HTTP/1.1 200 OK", "Cache-Control: max-age=60"}).lifetime_s(), 60);
  // max-age wins over Expires.
  EXPECT_EQ(headers({"HTTP/1.1 200 OK", "Date: Mon, 01 Jan 2024 00:00:00 GMT", "Expires: Mon, 01 Jan 2024 01:00:00 GMT",
                     "Cache-Control: max-age=60"})
                .lifetime_s(),
            60);
  EXPECT_EQ(
      headers({"HTTP/1.1 200 OK", "Date: Mon, 01 Jan 2024 00:00:00 GMT", "Expires: Mon, 01 Jan 2024 01:00:00 GMT"})
          .lifetime_s(),
      3600);
  EXPECT_EQ(headers({"HTTP/1.1 200 OK", "Expires: 0"}).lifetime_s(), 0);
  EXPECT_EQ(headers({"HTTP/1.1 200 OK", "Cache-Control: max-age=60", "Cache-Control: no-cache"}).lifetime_s(), 0);
  EXPECT_FALSE(headers({"HTTP/1.1 200 OK", "Last-Modified: Mon, 01 Jan 2024 00:00:00 GMT"}).lifetime_s());
}

TEST(FetchHeadersTest, AgeText) {
  using std::chrono::seconds;
  EXPECT_EQ(age_text(seconds(5)), "5 s");
  EXPECT_EQ(age_text(seconds(-3)), "0 s");
  EXPECT_EQ(age_text(seconds(125)), "2 min");
  EXPECT_EQ(age_text(seconds(3 * 3600 + 300)), "3 h");
  EXPECT_EQ(age_text(seconds(47 * 3600)), "47 h");
  EXPECT_EQ(age_text(seconds(5 * 86400)), "5 days");
}

TEST(FetchProgressTest, LineSaysCountSizeAndName) {
  EXPECT_EQ(progress_line({.done = 2, .total = 5, .bytes = 1258291, .expected = 3565158, .current = "repodata.json"}),
            "downloading 2/5  1.2 of 3.4 MiB  repodata.json");
  EXPECT_EQ(progress_line({.done = 0, .total = 1, .bytes = 512, .expected = 0, .current = ""}),
            "downloading 0/1  512 B");
  EXPECT_EQ(progress_line({.done = 0, .total = 1, .bytes = 512, .expected = 2048, .current = "x"}),
            "downloading 0/1  512 B of 2.0 KiB  x");
  auto long_line = progress_line({.done = 1, .total = 2, .bytes = 1, .expected = 0, .current = std::string(100, 'n')});
  EXPECT_EQ(long_line.size(), 79u);
  EXPECT_TRUE(long_line.ends_with("..."));
  EXPECT_EQ(size_text(1536), "1.5 KiB");
  EXPECT_EQ(size_text(3ull << 30), "3.0 GiB");
}

}  // namespace
}  // namespace extdeps::fetch
