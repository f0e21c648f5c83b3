// A real HTTP/1.1 server on 127.0.0.1 for the tests of the network layer (core/fetch/): a port the
// kernel picks, a thread per connection, keep-alive as libcurl expects it. Each path gets a Route
// that can fail on purpose (500s first, a reset or a short body mid-way, a stall after the
// headers), answers validators with 304 and encodes bodies (gzip, zstd, brotli) when the request
// accepts it. Folders can be served as file trees (a conda channel, a PyPI index). Requests are
// counted per path and their headers kept. The destructor stops everything, open connections
// and stalls included.
#pragma once

#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace extdeps::test {

enum class Encoding { identity, gzip, zstd, brotli };

// body as a server sends it with that Content-Encoding. brotli needs libbrotlienc at build time.
std::string encode(Encoding encoding, std::string_view body);
bool have_brotli();
// "Sun, 06 Nov 1994 08:49:37 GMT"
std::string http_date(std::chrono::system_clock::time_point t);

struct Route {
  int status = 200;
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;  // more response headers
  std::string etag;                        // sent as ETag; a request whose If-None-Match names it gets 304
  std::string last_modified;               // sent as Last-Modified; If-Modified-Since equal to it gets 304
  Encoding encoding = Encoding::identity;  // used when the request's Accept-Encoding allows it
  int fail_first = 0;                      // the first N requests to the path get fail_status
  int fail_status = 500;
  std::optional<std::size_t> reset_after;     // after this many body bytes: reset (RST)
  std::optional<std::size_t> truncate_after;  // after this many body bytes: close (FIN), although
                                              // Content-Length announced them all
  std::chrono::milliseconds answer_delay{0};  // wait this long before answering at all
  std::chrono::milliseconds stall{0};         // wait this long between the headers and the body
  bool endless = false;                       // send the body again and again, without a length,
                                              // until the client hangs up
  std::size_t chunk_size = 0;                 // send the body in pieces of this size...
  std::chrono::milliseconds chunk_delay{0};   // ...this far apart
};

struct SeenRequest {
  std::string method;
  std::string target;                               // as sent: a query, or absolute through a proxy
  std::map<std::string, std::string> headers;       // names in lower case
  std::string header(std::string_view name) const;  // "" when absent
};

class HttpServer {
 public:
  HttpServer();
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  int port() const;
  // "http://127.0.0.1:<port>" + path
  std::string url(std::string_view path) const;
  // Replaces the route of a path (the query is not part of it); other paths get 404.
  void route(const std::string& path, Route route);
  // GET <prefix>/<rel> answers <dir>/<rel>, with an ETag and Last-Modified from the file.
  void serve_dir(const std::string& prefix, const std::string& dir);
  int count(std::string_view path) const;
  std::vector<SeenRequest> seen(std::string_view path) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace extdeps::test
