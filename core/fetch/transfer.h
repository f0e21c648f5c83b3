// One HTTP GET through a libcurl easy handle: the options every download shares (timeouts,
// decoding, redirects, CA bundle), the conditional headers of a revalidation, the body written
// to a temporary file of the cache, and what went wrong in words. Internal to core/fetch/: the
// only header here that includes <curl/curl.h>.
#pragma once

#include "core/fetch/curl_api.h"

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "core/context/context.h"
#include "core/fetch/cache_store.h"
#include "core/fetch/fetch.h"
#include "core/fetch/http_headers.h"

namespace extdeps::fetch {

struct TransferSettings {
  long connect_timeout_ms = 10000;
  long low_speed_time_s = 30;
  long low_speed_limit = 1;
  std::string ca_bundle;         // CURLOPT_CAINFO; empty: libcurl's own default
  std::string ca_bundle_source;  // the variable it came from, for messages
  std::string ca_dir;            // CURLOPT_CAPATH
  std::uint64_t max_body_bytes = kDefaultMaxDownloadBytes;
  // When every transfer of the run must be done (Options::deadline_s after the first started);
  // unset until then.
  std::optional<std::chrono::steady_clock::time_point> deadline;
  long deadline_s = kDefaultDeadlineSeconds;
  // (libcurl's timer may fire a little before the deadline it was given: within 250 ms is past.)
  bool past_deadline() const {
    return deadline && std::chrono::steady_clock::now() + std::chrono::milliseconds(250) >= *deadline;
  }

  static TransferSettings from(const Context& ctx, const Options& options);
};

// The bytes all transfers of one Fetcher wrote; each transfer adds to it and stops past `limit`.
struct RunBudget {
  std::uint64_t used = 0;
  std::uint64_t limit = kDefaultMaxRunBytes;
};

// "2 GiB", "512 KiB", "1000 bytes": a limit in messages.
std::string size_limit_text(std::uint64_t bytes);

// Which protocols a redirect from `url` may go to: an https URL never to plain http (a
// man-in-the-middle could otherwise downgrade it and serve anything), http to either.
const char* redirect_protocols_for(std::string_view url);

class Transfer {
 public:
  // A GET of url into body; revalidating `cached` (If-None-Match / If-Modified-Since) when given.
  // `accept`, when not empty, is sent as the Accept header.
  static Result<std::unique_ptr<Transfer>> create(const TransferSettings& settings, const std::string& url,
                                                  const EntryMeta* cached, TempFile body,
                                                  const std::string& accept = {}, RunBudget* budget = nullptr);
  ~Transfer();
  Transfer(const Transfer&) = delete;
  Transfer& operator=(const Transfer&) = delete;

  CURL* handle() const { return easy_; }
  // Added to a multi handle; the destructor takes it out again if still there.
  void attached_to(CURLM* multi) { multi_ = multi; }
  void detach();

  long status() const;  // the final answer's status
  const ResponseHeaders& headers() const { return headers_; }
  TempFile& body() { return body_; }
  std::uint64_t bytes_now() const { return bytes_now_; }
  std::uint64_t bytes_expected() const { return bytes_expected_; }
  // The body's size on the wire matched Content-Length (or there was none, or it was encoded).
  bool complete() const;

  // What went wrong, without the URL: "connection reset after 1234 bytes".
  std::string failure_text(CURLcode rc) const;
  static bool retryable(CURLcode rc);

 private:
  Transfer() = default;
  static size_t on_header(char* data, size_t size, size_t count, void* self);
  static size_t on_body(char* data, size_t size, size_t count, void* self);
  static int on_progress(void* self, curl_off_t dltotal, curl_off_t dlnow, curl_off_t, curl_off_t);
  std::uint64_t wire_bytes() const;

  CURL* easy_ = nullptr;
  CURLM* multi_ = nullptr;
  curl_slist* request_headers_ = nullptr;
  TransferSettings settings_;
  std::string url_;
  ResponseHeaders headers_;
  TempFile body_;
  int write_errno_ = 0;
  RunBudget* budget_ = nullptr;
  std::uint64_t body_seen_ = 0;                                // bytes given to on_body, kept or not
  enum class Over { none, download, run } over_ = Over::none;  // which limit stopped it
  std::uint64_t bytes_now_ = 0;
  std::uint64_t bytes_expected_ = 0;
  char error_[CURL_ERROR_SIZE] = {};
};

}  // namespace extdeps::fetch
