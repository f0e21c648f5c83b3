// The network layer every provider uses. HTTP(S) downloads go through libcurl into an HTTP cache
// (<cache>/http): a body file and a small JSON metadata file per URL, revalidated with ETag and
// Last-Modified, fresh for the Cache-Control max-age, written atomically and under a lock shared
// by every extdeps process. Transfers run in parallel, retry 5xx answers and broken connections
// with a doubling backoff, and give up on stalls. file:// URLs are read in place. --offline
// answers from the cache alone. No header of core/fetch/ a caller includes pulls in <curl/curl.h>.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/context/context.h"
#include "core/util/result.h"

namespace extdeps::fetch {

inline constexpr std::uint64_t kDefaultMaxDownloadBytes = std::uint64_t{2} << 30;  // 2 GiB
inline constexpr std::uint64_t kDefaultMaxRunBytes = std::uint64_t{8} << 30;       // 8 GiB
inline constexpr long kDefaultDeadlineSeconds = 1800;  // 30 minutes for all downloads of a run

// From the command line and configuration (options_for() in core/fetch/options.h builds them).
struct Options {
  std::string cache_dir;  // the HTTP cache folder; empty: <ctx.cache_dir()>/http
  bool offline = false;   // no network: answer from the cache or fail
  long connect_timeout_ms = 10000;
  long low_speed_time_s = 30;  // give up when fewer than low_speed_limit bytes/s arrive for this long
  long low_speed_limit = 1;
  int retries = 3;        // tries after the first, on 5xx, 429, resets and timeouts
  long backoff_ms = 250;  // wait before the first retry, doubled for each later one
  int max_parallel = 8;   // transfers at once in fetch_all
  // The time all downloads of this Fetcher may take, counted from its first transfer
  // (EXTDEPS_DOWNLOAD_DEADLINE): a server that trickles a byte a second beats the stall timeout,
  // not this. Past it a transfer is stopped and not tried again.
  long deadline_s = kDefaultDeadlineSeconds;
  // Limits on what is written to disk (decoded bytes, error pages counted too): past either, the
  // download stops, its temporary file is removed and it fails naming the URL and the limit.
  std::uint64_t max_download_bytes = kDefaultMaxDownloadBytes;  // one download
  std::uint64_t max_run_bytes = kDefaultMaxRunBytes;            // all downloads of this Fetcher
  // Plain http:// URLs are fetched with a warning (once per host) unless the host is loopback or
  // this is set. An https:// URL that redirects to http:// is refused either way.
  bool allow_insecure_http = false;
  bool progress = false;                    // draw a progress line (the caller sets it when stderr is a terminal)
  std::ostream* progress_stream = nullptr;  // where the line goes; nullptr: std::cerr
};

struct Request {
  std::string url;                // http://, https:// or file://
  bool missing_ok = false;        // 404/410 (a missing file) is an answer (found = false), not an error
  std::optional<long> max_age_s;  // replaces the server's freshness (0: always revalidate)
  // With missing_ok: a remembered "not found" younger than this answers without the network,
  // whatever the server said of its freshness (a channel without repodata.json.zst is not asked
  // for it on every run).
  std::optional<long> missing_max_age_s;
  // The Accept header ("application/vnd.pypi.simple.v1+json, text/html;q=0.01"); empty: none.
  // The cache is keyed on the URL alone: ask one URL with one Accept.
  std::string accept;
};

struct Response {
  std::string url;
  bool found = true;         // false only for missing_ok and 404/410 or a missing file
  std::string body_path;     // the decoded body (Content-Encoding removed); read it, never modify it.
                             // A later fetch of the same URL may replace the file (by rename, so an
                             // open descriptor keeps the old contents). Empty when !found.
  bool from_cache = false;   // answered without the network (fresh, or --offline)
  bool revalidated = false;  // the server answered 304: the cached body is still current
  std::chrono::system_clock::time_point fetched_at;  // when the body was last downloaded or validated
  long http_status = 0;      // the last status the server gave (304 when revalidated; the stored
                             // status when from_cache); 0 for file://
  std::string content_type;  // as the server sent it with the body ("text/html; charset=utf-8");
                             // empty for file:// and when it sent none
};

// Not thread-safe: one Fetcher per thread. The Context must outlive it.
class Fetcher {
 public:
  Fetcher(const Context& ctx, Options opts);
  ~Fetcher();
  Fetcher(Fetcher&&) noexcept;
  Fetcher& operator=(Fetcher&&) noexcept;

  Result<Response> fetch(const Request& request);
  // All at once (up to Options::max_parallel transfers); the results are in request order.
  // `each`, when given, is called on this thread with a request's index and result as soon as
  // that result is final (the cache's answers first, then in the order transfers end), so a
  // caller can read one answer while the others are on their way.
  using Each = std::function<void(std::size_t index, const Result<Response>& result)>;
  std::vector<Result<Response>> fetch_all(const std::vector<Request>& requests, const Each& each = {});
  // Drops the cached copy of a URL, for a consumer that found it unusable (a body that does not
  // parse): the next fetch downloads it again.
  Result<void> forget(const std::string& url);

  const Options& options() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace extdeps::fetch
