// The loopback server itself, spoken to over a plain socket (no libcurl), so that a fetcher test
// that fails points at the fetcher.
#include "tests/support/http_server.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>
#include <zlib.h>

#include <chrono>
#include <filesystem>
#include <fstream>

#include "tests/test_support.h"

// Designated initializers leave the other fields at their defaults on purpose; GCC 12 warns.
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

namespace extdeps::test {
namespace {

struct RawResponse {
  int status = 0;
  std::map<std::string, std::string> headers;  // lower-case names
  std::string body;
};

int connect_to(int port) {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = htons(static_cast<uint16_t>(port));
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

// One request on its own connection ("Connection: close"), read to the end.
RawResponse get(const HttpServer& server, const std::string& path, const std::string& extra_headers = "") {
  int fd = connect_to(server.port());
  EXPECT_GE(fd, 0);
  std::string req = "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n" + extra_headers + "\r\n";
  EXPECT_EQ(::send(fd, req.data(), req.size(), MSG_NOSIGNAL), static_cast<ssize_t>(req.size()));
  std::string raw;
  char buf[4096];
  ssize_t n;
  while ((n = ::recv(fd, buf, sizeof buf, 0)) > 0) raw.append(buf, static_cast<size_t>(n));
  ::close(fd);
  RawResponse r;
  auto end = raw.find("\r\n\r\n");
  if (end == std::string::npos) return r;
  std::string head = raw.substr(0, end);
  r.body = raw.substr(end + 4);
  r.status = std::stoi(head.substr(9, 3));
  size_t pos = head.find("\r\n");
  while (pos != std::string::npos) {
    size_t next = head.find("\r\n", pos + 2);
    std::string line = head.substr(pos + 2, next == std::string::npos ? std::string::npos : next - pos - 2);
    auto colon = line.find(':');
    std::string name = line.substr(0, colon);
    for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    r.headers[name] = line.substr(colon + 2);
    pos = next;
  }
  return r;
}

std::string gunzip(const std::string& data) {
  z_stream zs{};
  inflateInit2(&zs, 15 + 16);
  std::string out(1 << 16, '\0');
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  zs.avail_in = static_cast<uInt>(data.size());
  zs.next_out = reinterpret_cast<Bytef*>(out.data());
  zs.avail_out = static_cast<uInt>(out.size());
  int rc = inflate(&zs, Z_FINISH);
  out.resize(zs.total_out);
  inflateEnd(&zs);
  EXPECT_EQ(rc, Z_STREAM_END);
  return out;
}

TEST(HttpServerTest, AnswersARouteAndKeepsTheRequest) {
  HttpServer server;
  server.route("/hello", {.status = 200, .body = "hello\n", .headers = {{"Cache-Control", "max-age=5"}}});
  auto r = get(server, "/hello?x=1", "X-Test: yes\r\n");
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.body, "hello\n");
  EXPECT_EQ(r.headers["content-length"], "6");
  EXPECT_EQ(r.headers["cache-control"], "max-age=5");
  EXPECT_EQ(server.count("/hello"), 1);
  auto seen = server.seen("/hello");
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_EQ(seen[0].method, "GET");
  EXPECT_EQ(seen[0].target, "/hello?x=1");
  EXPECT_EQ(seen[0].header("X-TEST"), "yes");
  EXPECT_EQ(server.url("/a"), "http://127.0.0.1:" + std::to_string(server.port()) + "/a");
}

TEST(HttpServerTest, UnknownPathIs404) {
  HttpServer server;
  auto r = get(server, "/nothing");
  EXPECT_EQ(r.status, 404);
  EXPECT_EQ(server.count("/nothing"), 1);
}

TEST(HttpServerTest, FailsTheFirstRequestsThenAnswers) {
  HttpServer server;
  server.route("/flaky", {.body = "ok", .fail_first = 2, .fail_status = 503});
  EXPECT_EQ(get(server, "/flaky").status, 503);
  EXPECT_EQ(get(server, "/flaky").status, 503);
  auto r = get(server, "/flaky");
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.body, "ok");
  EXPECT_EQ(server.count("/flaky"), 3);
}

TEST(HttpServerTest, AnswersValidatorsWith304) {
  HttpServer server;
  server.route("/v", {.body = "data", .etag = "\"v1\"", .last_modified = "Mon, 01 Jan 2024 00:00:00 GMT"});
  EXPECT_EQ(get(server, "/v", "If-None-Match: \"v1\"\r\n").status, 304);
  EXPECT_EQ(get(server, "/v", "If-None-Match: \"v0\"\r\n").status, 200);
  EXPECT_EQ(get(server, "/v", "If-Modified-Since: Mon, 01 Jan 2024 00:00:00 GMT\r\n").status, 304);
  auto r = get(server, "/v");
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.headers["etag"], "\"v1\"");
}

TEST(HttpServerTest, EncodesTheBodyOnlyWhenAccepted) {
  HttpServer server;
  std::string text(5000, 'x');
  server.route("/z", {.body = text, .encoding = Encoding::gzip});
  auto plain = get(server, "/z");
  EXPECT_EQ(plain.body, text);
  EXPECT_EQ(plain.headers.count("content-encoding"), 0u);
  auto gz = get(server, "/z", "Accept-Encoding: deflate, gzip\r\n");
  EXPECT_EQ(gz.headers["content-encoding"], "gzip");
  EXPECT_LT(gz.body.size(), text.size());
  EXPECT_EQ(gunzip(gz.body), text);
}

TEST(HttpServerTest, ServesAFolder) {
  HttpServer server;
  std::string dir = temp_dir();
  std::filesystem::create_directories(dir + "/linux-64");
  std::ofstream(dir + "/linux-64/repodata.json") << "{}\n";
  server.serve_dir("/channel/", dir);
  auto r = get(server, "/channel/linux-64/repodata.json");
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.body, "{}\n");
  ASSERT_FALSE(r.headers["etag"].empty());
  EXPECT_EQ(get(server, "/channel/linux-64/repodata.json", "If-None-Match: " + r.headers["etag"] + "\r\n").status, 304);
  EXPECT_EQ(get(server, "/channel/linux-64/missing.json").status, 404);
  EXPECT_EQ(get(server, "/channel/../etc/passwd").status, 403);
}

TEST(HttpServerTest, ShortBodyAndResetCloseTheConnection) {
  HttpServer server;
  server.route("/short", {.body = std::string(100, 'a'), .truncate_after = 10});
  auto r = get(server, "/short");
  EXPECT_EQ(r.headers["content-length"], "100");
  EXPECT_EQ(r.body.size(), 10u);
  server.route("/reset", {.body = std::string(100, 'b'), .reset_after = 20});
  r = get(server, "/reset");
  EXPECT_EQ(r.headers["content-length"], "100");
  EXPECT_LE(r.body.size(), 20u);
}

TEST(HttpServerTest, StopsPromptlyWithIdleConnectionsAndStalls) {
  auto start = std::chrono::steady_clock::now();
  int idle = -1, stalled = -1;
  {
    HttpServer server;
    server.route("/stall", {.body = "late", .stall = std::chrono::seconds(30)});
    idle = connect_to(server.port());
    stalled = connect_to(server.port());
    std::string req = "GET /stall HTTP/1.1\r\nHost: x\r\n\r\n";
    ::send(stalled, req.data(), req.size(), MSG_NOSIGNAL);
    while (server.count("/stall") == 0) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  ::close(idle);
  ::close(stalled);
}

}  // namespace
}  // namespace extdeps::test
