#include "tests/support/http_server.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <cctype>
#include <condition_variable>
#include <cstring>
#include <ctime>
#include <fstream>
#include <mutex>
#include <set>
#include <sstream>
#include <stdexcept>
#include <thread>

#ifdef EXTDEPS_TEST_HAVE_BROTLI
#include <brotli/encode.h>
#endif

namespace extdeps::test {

namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

std::string gzip(std::string_view body) {
  z_stream zs{};
  if (deflateInit2(&zs, Z_BEST_SPEED, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
    throw std::runtime_error("deflateInit2 failed");
  std::string out(deflateBound(&zs, body.size()) + 32, '\0');
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(body.data()));
  zs.avail_in = static_cast<uInt>(body.size());
  zs.next_out = reinterpret_cast<Bytef*>(out.data());
  zs.avail_out = static_cast<uInt>(out.size());
  int rc = deflate(&zs, Z_FINISH);
  out.resize(zs.total_out);
  deflateEnd(&zs);
  if (rc != Z_STREAM_END) throw std::runtime_error("deflate failed");
  return out;
}

std::string zstd(std::string_view body) {
  std::string out(ZSTD_compressBound(body.size()), '\0');
  size_t n = ZSTD_compress(out.data(), out.size(), body.data(), body.size(), 3);
  if (ZSTD_isError(n)) throw std::runtime_error(ZSTD_getErrorName(n));
  out.resize(n);
  return out;
}

std::string brotli([[maybe_unused]] std::string_view body) {
#ifdef EXTDEPS_TEST_HAVE_BROTLI
  size_t size = BrotliEncoderMaxCompressedSize(body.size());
  std::string out(size ? size : 64, '\0');
  size = out.size();
  if (!BrotliEncoderCompress(5, BROTLI_DEFAULT_WINDOW, BROTLI_MODE_GENERIC, body.size(),
                             reinterpret_cast<const uint8_t*>(body.data()), &size,
                             reinterpret_cast<uint8_t*>(out.data())))
    throw std::runtime_error("BrotliEncoderCompress failed");
  out.resize(size);
  return out;
#else
  throw std::runtime_error("built without libbrotlienc");
#endif
}

const char* token(Encoding e) {
  switch (e) {
    case Encoding::gzip: return "gzip";
    case Encoding::zstd: return "zstd";
    case Encoding::brotli: return "br";
    case Encoding::identity: break;
  }
  return "identity";
}

const char* reason(int status) {
  switch (status) {
    case 200: return "OK";
    case 204: return "No Content";
    case 301: return "Moved Permanently";
    case 302: return "Found";
    case 304: return "Not Modified";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 408: return "Request Timeout";
    case 410: return "Gone";
    case 429: return "Too Many Requests";
    case 500: return "Internal Server Error";
    case 502: return "Bad Gateway";
    case 503: return "Service Unavailable";
    default: return "Status";
  }
}

bool send_all(int fd, std::string_view data) {
  while (!data.empty()) {
    ssize_t n = ::send(fd, data.data(), data.size(), MSG_NOSIGNAL);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    data.remove_prefix(static_cast<size_t>(n));
  }
  return true;
}

// The path a route is looked up by: no scheme and host (absolute form, through a proxy), no query.
std::string route_path(std::string_view target) {
  if (auto scheme = target.find("://"); scheme != std::string_view::npos && target.front() != '/') {
    auto slash = target.find('/', scheme + 3);
    target = slash == std::string_view::npos ? std::string_view("/") : target.substr(slash);
  }
  return std::string(target.substr(0, target.find('?')));
}

struct Answer {
  int status = 200;
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
  bool head_only = false;  // 304, HEAD: no body
};

}  // namespace

std::string encode(Encoding encoding, std::string_view body) {
  switch (encoding) {
    case Encoding::gzip: return gzip(body);
    case Encoding::zstd: return zstd(body);
    case Encoding::brotli: return brotli(body);
    case Encoding::identity: break;
  }
  return std::string(body);
}

bool have_brotli() {
#ifdef EXTDEPS_TEST_HAVE_BROTLI
  return true;
#else
  return false;
#endif
}

std::string http_date(std::chrono::system_clock::time_point t) {
  std::time_t tt = std::chrono::system_clock::to_time_t(t);
  std::tm tm{};
  gmtime_r(&tt, &tm);
  char buf[64];
  std::strftime(buf, sizeof buf, "%a, %d %b %Y %H:%M:%S GMT", &tm);
  return buf;
}

std::string SeenRequest::header(std::string_view name) const {
  auto it = headers.find(lower(name));
  return it == headers.end() ? std::string() : it->second;
}

struct HttpServer::Impl {
  int listen_fd = -1;
  int wake[2] = {-1, -1};
  int port = 0;
  std::thread acceptor;

  mutable std::mutex mu;
  std::condition_variable stop_cv;
  bool stopping = false;
  std::map<std::string, Route> routes;
  std::vector<std::pair<std::string, std::string>> dirs;
  std::map<std::string, int> counts;
  std::map<std::string, std::vector<SeenRequest>> seen;
  std::vector<std::thread> workers;
  std::set<int> open_fds;

  // Sleeps, unless the server stops first; false when it stops.
  bool pause(std::chrono::milliseconds d) {
    std::unique_lock lock(mu);
    return !stop_cv.wait_for(lock, d, [this] { return stopping; });
  }

  void accept_loop() {
    for (;;) {
      pollfd fds[2] = {{listen_fd, POLLIN, 0}, {wake[0], POLLIN, 0}};
      if (::poll(fds, 2, -1) < 0) {
        if (errno == EINTR) continue;
        return;
      }
      if (fds[1].revents) return;
      if (!(fds[0].revents & POLLIN)) continue;
      int fd = ::accept4(listen_fd, nullptr, nullptr, SOCK_CLOEXEC);
      if (fd < 0) continue;
      // Headers and body go out in separate writes; without this, Nagle's algorithm and the
      // client's delayed ACK hold the second one back 40 ms.
      int one = 1;
      ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
      std::lock_guard lock(mu);
      if (stopping) {
        ::close(fd);
        return;
      }
      open_fds.insert(fd);
      workers.emplace_back([this, fd] { serve(fd); });
    }
  }

  void serve(int fd) {
    std::string buf;
    for (;;) {
      auto request = read_request(fd, buf);
      if (!request) break;
      if (!answer(fd, *request)) break;
    }
    std::lock_guard lock(mu);
    open_fds.erase(fd);
    ::close(fd);
  }

  static std::optional<SeenRequest> read_request(int fd, std::string& buf) {
    size_t end;
    while ((end = buf.find("\r\n\r\n")) == std::string::npos) {
      char chunk[4096];
      ssize_t n = ::recv(fd, chunk, sizeof chunk, 0);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return std::nullopt;
      buf.append(chunk, static_cast<size_t>(n));
    }
    std::string head = buf.substr(0, end);
    buf.erase(0, end + 4);
    SeenRequest r;
    std::istringstream lines(head);
    std::string line;
    std::getline(lines, line);
    std::istringstream first(line);
    std::string version;
    first >> r.method >> r.target >> version;
    while (std::getline(lines, line)) {
      auto colon = line.find(':');
      if (colon == std::string::npos) continue;
      r.headers[lower(trim(std::string_view(line).substr(0, colon)))] =
          std::string(trim(std::string_view(line).substr(colon + 1)));
    }
    // A request body (none is expected) is skipped.
    if (auto cl = r.headers.find("content-length"); cl != r.headers.end()) {
      size_t want = std::stoul(cl->second);
      while (buf.size() < want) {
        char chunk[4096];
        ssize_t n = ::recv(fd, chunk, sizeof chunk, 0);
        if (n <= 0) return std::nullopt;
        buf.append(chunk, static_cast<size_t>(n));
      }
      buf.erase(0, want);
    }
    return r;
  }

  static bool not_modified(const SeenRequest& r, const std::string& etag, const std::string& last_modified) {
    std::string inm = r.header("if-none-match");
    if (!inm.empty()) return !etag.empty() && (inm == "*" || inm.find(etag) != std::string::npos);
    std::string ims = r.header("if-modified-since");
    return !ims.empty() && !last_modified.empty() && ims == last_modified;
  }

  // Sends the status line and headers.
  static bool send_head(int fd, const Answer& a, std::optional<size_t> length, bool keep_alive) {
    std::string head = "HTTP/1.1 " + std::to_string(a.status) + " " + reason(a.status) + "\r\n";
    for (const auto& [k, v] : a.headers) head += k + ": " + v + "\r\n";
    if (length) head += "Content-Length: " + std::to_string(*length) + "\r\n";
    head += keep_alive ? "Connection: keep-alive\r\n" : "Connection: close\r\n";
    head += "\r\n";
    return send_all(fd, head);
  }

  // false: close the connection.
  bool answer(int fd, const SeenRequest& request) {
    std::string path = route_path(request.target);
    std::optional<Route> route;
    std::optional<std::pair<std::string, std::string>> dir;
    int count;
    {
      std::lock_guard lock(mu);
      count = ++counts[path];
      seen[path].push_back(request);
      if (auto it = routes.find(path); it != routes.end()) {
        route = it->second;
      } else {
        for (const auto& d : dirs)
          if (path.size() > d.first.size() && path.compare(0, d.first.size(), d.first) == 0 &&
              path[d.first.size()] == '/')
            dir = d;
      }
    }
    bool keep_alive = lower(request.header("connection")) != "close";
    bool head_method = request.method == "HEAD";
    if (route) return answer_route(fd, request, *route, count, keep_alive, head_method);
    Answer a;
    if (dir) a = file_answer(request, dir->second, path.substr(dir->first.size()));
    else a = {404, {{"Content-Type", "text/plain"}}, "no route for " + path + "\n"};
    if (!send_head(fd, a, a.head_only ? std::nullopt : std::optional(a.body.size()), keep_alive)) return false;
    if (!a.head_only && !head_method && !send_all(fd, a.body)) return false;
    return keep_alive;
  }

  static Answer file_answer(const SeenRequest& request, const std::string& dir, const std::string& rel) {
    Answer a;
    if (rel.find("/../") != std::string::npos || rel.ends_with("/..")) return {403, {}, "no\n"};
    std::string file = dir + rel;
    struct stat st {};
    if (::stat(file.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return {404, {}, "no file " + rel + "\n"};
    std::string etag = "\"" + std::to_string(st.st_size) + "-" + std::to_string(st.st_mtim.tv_sec) + "." +
                       std::to_string(st.st_mtim.tv_nsec) + "\"";
    std::string last_modified = http_date(std::chrono::system_clock::from_time_t(st.st_mtim.tv_sec));
    a.headers = {{"ETag", etag}, {"Last-Modified", last_modified}};
    if (not_modified(request, etag, last_modified)) {
      a.status = 304;
      a.head_only = true;
      return a;
    }
    std::ifstream in(file, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    a.body = ss.str();
    return a;
  }

  bool answer_route(int fd, const SeenRequest& request, const Route& route, int count, bool keep_alive,
                    bool head_method) {
    if (route.answer_delay.count() > 0 && !pause(route.answer_delay)) return false;
    Answer a;
    if (count <= route.fail_first) {
      a = {route.fail_status, {{"Content-Type", "text/plain"}}, "failing on purpose (" + std::to_string(count) + ")\n"};
      return send_head(fd, a, a.body.size(), keep_alive) && send_all(fd, a.body) && keep_alive;
    }
    a.status = route.status;
    if (!route.etag.empty()) a.headers.emplace_back("ETag", route.etag);
    if (!route.last_modified.empty()) a.headers.emplace_back("Last-Modified", route.last_modified);
    for (const auto& h : route.headers) a.headers.push_back(h);
    if (route.status == 304 || not_modified(request, route.etag, route.last_modified)) {
      a.status = 304;
      return send_head(fd, a, std::nullopt, keep_alive) && keep_alive;
    }
    std::string body = route.body;
    if (route.encoding != Encoding::identity &&
        lower(request.header("accept-encoding")).find(token(route.encoding)) != std::string::npos) {
      body = encode(route.encoding, body);
      a.headers.emplace_back("Content-Encoding", token(route.encoding));
    }
    if (route.endless) {
      if (!send_head(fd, a, std::nullopt, false) || head_method) return false;
      while (send_all(fd, body) && pause(std::chrono::milliseconds(0))) {
      }
      return false;
    }
    bool closing = route.reset_after || route.truncate_after;
    if (!send_head(fd, a, body.size(), keep_alive && !closing)) return false;
    if (head_method) return keep_alive;
    if (route.stall.count() > 0 && !pause(route.stall)) return false;
    if (route.reset_after) {
      send_all(fd, std::string_view(body).substr(0, std::min(*route.reset_after, body.size())));
      // Let the client read what was sent, then reset: SO_LINGER 0 makes close() send RST.
      pause(std::chrono::milliseconds(50));
      linger lg{1, 0};
      ::setsockopt(fd, SOL_SOCKET, SO_LINGER, &lg, sizeof lg);
      return false;
    }
    if (route.truncate_after) {
      send_all(fd, std::string_view(body).substr(0, std::min(*route.truncate_after, body.size())));
      ::shutdown(fd, SHUT_WR);
      return false;
    }
    if (route.chunk_size > 0) {
      for (size_t off = 0; off < body.size(); off += route.chunk_size) {
        if (off > 0 && !pause(route.chunk_delay)) return false;
        if (!send_all(fd, std::string_view(body).substr(off, route.chunk_size))) return false;
      }
      return keep_alive;
    }
    return send_all(fd, body) && keep_alive;
  }
};

HttpServer::HttpServer() : impl_(std::make_unique<Impl>()) {
  Impl& s = *impl_;
  s.listen_fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (s.listen_fd < 0) throw std::runtime_error(std::string("socket: ") + std::strerror(errno));
  int one = 1;
  ::setsockopt(s.listen_fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;  // the kernel picks
  if (::bind(s.listen_fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 || ::listen(s.listen_fd, 64) != 0)
    throw std::runtime_error(std::string("bind/listen: ") + std::strerror(errno));
  socklen_t len = sizeof addr;
  ::getsockname(s.listen_fd, reinterpret_cast<sockaddr*>(&addr), &len);
  s.port = ntohs(addr.sin_port);
  if (::pipe2(s.wake, O_CLOEXEC) != 0) throw std::runtime_error("pipe2 failed");
  s.acceptor = std::thread([&s] { s.accept_loop(); });
}

HttpServer::~HttpServer() {
  Impl& s = *impl_;
  {
    std::lock_guard lock(s.mu);
    s.stopping = true;
  }
  s.stop_cv.notify_all();
  char c = 1;
  [[maybe_unused]] auto n = ::write(s.wake[1], &c, 1);
  s.acceptor.join();
  {
    // Wakes the workers blocked in recv() on kept-alive connections; each closes its own socket.
    std::lock_guard lock(s.mu);
    for (int fd : s.open_fds) ::shutdown(fd, SHUT_RDWR);
  }
  for (auto& w : s.workers) w.join();
  ::close(s.listen_fd);
  ::close(s.wake[0]);
  ::close(s.wake[1]);
}

int HttpServer::port() const { return impl_->port; }

std::string HttpServer::url(std::string_view path) const {
  return "http://127.0.0.1:" + std::to_string(impl_->port) + std::string(path);
}

void HttpServer::route(const std::string& path, Route route) {
  std::lock_guard lock(impl_->mu);
  impl_->routes[path] = std::move(route);
}

void HttpServer::serve_dir(const std::string& prefix, const std::string& dir) {
  std::lock_guard lock(impl_->mu);
  std::string p = prefix;
  while (!p.empty() && p.back() == '/') p.pop_back();
  impl_->dirs.emplace_back(p, dir);
}

int HttpServer::count(std::string_view path) const {
  std::lock_guard lock(impl_->mu);
  auto it = impl_->counts.find(std::string(path));
  return it == impl_->counts.end() ? 0 : it->second;
}

std::vector<SeenRequest> HttpServer::seen(std::string_view path) const {
  std::lock_guard lock(impl_->mu);
  auto it = impl_->seen.find(std::string(path));
  return it == impl_->seen.end() ? std::vector<SeenRequest>{} : it->second;
}

}  // namespace extdeps::test
