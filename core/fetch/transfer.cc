#include "core/fetch/transfer.h"

#include <cerrno>
#include <cstring>
#include <mutex>
#include <string_view>

#include "core/util/text.h"

namespace extdeps::fetch {

namespace {

std::string seconds_text(long ms) {
  if (ms % 1000 == 0) return std::to_string(ms / 1000) + " s";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f s", static_cast<double>(ms) / 1000);
  return buf;
}

}  // namespace

const char* redirect_protocols_for(std::string_view url) {
  auto colon = url.find(':');
  std::string scheme = to_lower(url.substr(0, colon == std::string_view::npos ? 0 : colon));
  return scheme == "https" ? "https" : "http,https";
}

std::string size_limit_text(std::uint64_t bytes) {
  if (bytes >= (1ull << 30) && bytes % (1ull << 30) == 0) return std::to_string(bytes >> 30) + " GiB";
  if (bytes >= (1ull << 20) && bytes % (1ull << 20) == 0) return std::to_string(bytes >> 20) + " MiB";
  if (bytes >= (1ull << 10) && bytes % (1ull << 10) == 0) return std::to_string(bytes >> 10) + " KiB";
  return std::to_string(bytes) + " bytes";
}

TransferSettings TransferSettings::from(const Context& ctx, const Options& options) {
  TransferSettings s;
  s.connect_timeout_ms = options.connect_timeout_ms;
  s.low_speed_time_s = options.low_speed_time_s;
  s.low_speed_limit = options.low_speed_limit;
  s.max_body_bytes = options.max_download_bytes;
  s.deadline_s = options.deadline_s;
  // libcurl itself reads the proxy variables (http_proxy, https_proxy, all_proxy, no_proxy) from
  // the process environment, but not the CA ones: those are the curl tool's and OpenSSL's
  // conventions, which a library user expects to hold here too.
  for (const char* name : {"CURL_CA_BUNDLE", "SSL_CERT_FILE"}) {
    if (auto v = ctx.env(name); v && !v->empty()) {
      s.ca_bundle = *v;
      s.ca_bundle_source = name;
      break;
    }
  }
  if (auto v = ctx.env("SSL_CERT_DIR"); v && !v->empty()) s.ca_dir = *v;
  return s;
}

Result<std::unique_ptr<Transfer>> Transfer::create(const TransferSettings& settings, const std::string& url,
                                                   const EntryMeta* cached, TempFile body, const std::string& accept,
                                                   RunBudget* budget) {
  if (auto loaded = load_curl(); !loaded.ok()) return at_place(loaded.error(), url);
  std::unique_ptr<Transfer> t(new Transfer());
  t->settings_ = settings;
  t->url_ = url;
  t->body_ = std::move(body);
  t->budget_ = budget;
  t->easy_ = curl().easy_init();
  if (!t->easy_) return error_at(ExitCode::environment, url, "cannot start a transfer (libcurl: out of memory)");
  CURL* e = t->easy_;
  curl().easy_setopt(e, CURLOPT_URL, url.c_str());
  curl().easy_setopt(e, CURLOPT_ERRORBUFFER, t->error_);
  // Threads may run beside us; timeouts must not rely on signals.
  curl().easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
  curl().easy_setopt(e, CURLOPT_PROTOCOLS_STR, "http,https");
  curl().easy_setopt(e, CURLOPT_REDIR_PROTOCOLS_STR, redirect_protocols_for(url));
  curl().easy_setopt(e, CURLOPT_FOLLOWLOCATION, 1L);
  curl().easy_setopt(e, CURLOPT_MAXREDIRS, 10L);
  // "": every encoding this libcurl decodes (Debian's: gzip, deflate, br, zstd); the body that
  // reaches on_body is decoded.
  curl().easy_setopt(e, CURLOPT_ACCEPT_ENCODING, "");
  curl().easy_setopt(e, CURLOPT_USERAGENT, "extdeps/" EXTDEPS_VERSION);
  curl().easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS, settings.connect_timeout_ms);
  curl().easy_setopt(e, CURLOPT_LOW_SPEED_TIME, settings.low_speed_time_s);
  curl().easy_setopt(e, CURLOPT_LOW_SPEED_LIMIT, settings.low_speed_limit);
  if (settings.deadline) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(*settings.deadline - std::chrono::steady_clock::now());
    curl().easy_setopt(e, CURLOPT_TIMEOUT_MS, std::max<long>(1, static_cast<long>(left.count())));
  }
  // A Content-Length over the limit fails before any byte is written; on_body stops the rest.
  curl().easy_setopt(e, CURLOPT_MAXFILESIZE_LARGE, static_cast<curl_off_t>(settings.max_body_bytes));
  if (!settings.ca_bundle.empty()) curl().easy_setopt(e, CURLOPT_CAINFO, settings.ca_bundle.c_str());
  if (!settings.ca_dir.empty()) curl().easy_setopt(e, CURLOPT_CAPATH, settings.ca_dir.c_str());
  curl().easy_setopt(e, CURLOPT_HEADERFUNCTION, &Transfer::on_header);
  curl().easy_setopt(e, CURLOPT_HEADERDATA, t.get());
  curl().easy_setopt(e, CURLOPT_WRITEFUNCTION, &Transfer::on_body);
  curl().easy_setopt(e, CURLOPT_WRITEDATA, t.get());
  curl().easy_setopt(e, CURLOPT_NOPROGRESS, 0L);
  curl().easy_setopt(e, CURLOPT_XFERINFOFUNCTION, &Transfer::on_progress);
  curl().easy_setopt(e, CURLOPT_XFERINFODATA, t.get());
  if (!accept.empty()) t->request_headers_ = curl().slist_append(t->request_headers_, ("Accept: " + accept).c_str());
  if (cached) {
    if (!cached->etag.empty())
      t->request_headers_ = curl().slist_append(t->request_headers_, ("If-None-Match: " + cached->etag).c_str());
    if (!cached->last_modified.empty())
      t->request_headers_ =
          curl().slist_append(t->request_headers_, ("If-Modified-Since: " + cached->last_modified).c_str());
  }
  if (t->request_headers_) curl().easy_setopt(e, CURLOPT_HTTPHEADER, t->request_headers_);
  return t;
}

Transfer::~Transfer() {
  detach();
  if (easy_) curl().easy_cleanup(easy_);
  if (request_headers_) curl().slist_free_all(request_headers_);
}

void Transfer::detach() {
  if (multi_ && easy_) curl().multi_remove_handle(multi_, easy_);
  multi_ = nullptr;
}

size_t Transfer::on_header(char* data, size_t size, size_t count, void* self) {
  static_cast<Transfer*>(self)->headers_.add_line(std::string_view(data, size * count));
  return size * count;
}

// Only a 2xx answer's body is kept; an error page is read and dropped.
size_t Transfer::on_body(char* data, size_t size, size_t count, void* self) {
  auto* t = static_cast<Transfer*>(self);
  size_t n = size * count;
  // Every byte counts, an error page's too: an endless body must end somewhere.
  t->body_seen_ += n;
  if (t->body_seen_ > t->settings_.max_body_bytes) {
    t->over_ = Over::download;
    return 0;  // libcurl stops with CURLE_WRITE_ERROR
  }
  if (t->budget_) {
    t->budget_->used += n;
    if (t->budget_->used > t->budget_->limit) {
      t->over_ = Over::run;
      return 0;
    }
  }
  if (t->headers_.status < 200 || t->headers_.status >= 300) return n;
  if (!t->body_.write(data, n)) {
    t->write_errno_ = errno;
    return 0;  // libcurl stops with CURLE_WRITE_ERROR
  }
  return n;
}

int Transfer::on_progress(void* self, curl_off_t dltotal, curl_off_t dlnow, curl_off_t, curl_off_t) {
  auto* t = static_cast<Transfer*>(self);
  t->bytes_now_ = static_cast<std::uint64_t>(dlnow);
  t->bytes_expected_ = static_cast<std::uint64_t>(dltotal);
  return 0;
}

long Transfer::status() const {
  long code = 0;
  curl().easy_getinfo(easy_, CURLINFO_RESPONSE_CODE, &code);
  return code;
}

std::uint64_t Transfer::wire_bytes() const {
  curl_off_t n = 0;
  curl().easy_getinfo(easy_, CURLINFO_SIZE_DOWNLOAD_T, &n);
  return static_cast<std::uint64_t>(n);
}

bool Transfer::complete() const {
  if (!headers_.content_length) return true;
  // libcurl counts the bytes as they came, before decoding.
  return wire_bytes() == *headers_.content_length;
}

bool Transfer::retryable(CURLcode rc) {
  switch (rc) {
    case CURLE_COULDNT_CONNECT:
    case CURLE_OPERATION_TIMEDOUT:
    case CURLE_RECV_ERROR:
    case CURLE_SEND_ERROR:
    case CURLE_PARTIAL_FILE:
    case CURLE_GOT_NOTHING:
    case CURLE_HTTP2:
    case CURLE_HTTP2_STREAM:
    case CURLE_HTTP3:
    case CURLE_SSL_CONNECT_ERROR: return true;
    default: return false;
  }
}

std::string Transfer::failure_text(CURLcode rc) const {
  std::string detail = error_[0] ? lower_first(error_) : lower_first(curl().easy_strerror(rc));
  long os_errno = 0;
  curl().easy_getinfo(easy_, CURLINFO_OS_ERRNO, &os_errno);
  std::uint64_t got = wire_bytes();
  bool answered = headers_.status != 0;
  switch (rc) {
    case CURLE_OPERATION_TIMEDOUT: {
      curl_off_t connected = 0;
      curl().easy_getinfo(easy_, CURLINFO_CONNECT_TIME_T, &connected);
      if (settings_.past_deadline())
        return "stopped after " + std::to_string(got) + " bytes: the downloads of this run took longer than " +
               std::to_string(settings_.deadline_s) + " s in all (EXTDEPS_DOWNLOAD_DEADLINE)";
      if (connected == 0) return "could not connect within " + seconds_text(settings_.connect_timeout_ms);
      std::string what = settings_.low_speed_limit <= 1
                             ? "timed out, no data for " + std::to_string(settings_.low_speed_time_s) + " s"
                             : "timed out, under " + std::to_string(settings_.low_speed_limit) + " bytes/s for " +
                                   std::to_string(settings_.low_speed_time_s) + " s";
      if (!answered) return what + " waiting for the answer";
      return what + " after " + std::to_string(got) + " bytes";
    }
    case CURLE_RECV_ERROR:
      if (!answered) return "connection reset before the answer";
      return "connection reset after " + std::to_string(got) + " bytes";
    case CURLE_SEND_ERROR: return "connection reset while sending the request";
    case CURLE_PARTIAL_FILE:
      if (headers_.content_length)
        return "body cut short: got " + std::to_string(got) + " of " + std::to_string(*headers_.content_length) +
               " bytes";
      return "body cut short after " + std::to_string(got) + " bytes";
    case CURLE_GOT_NOTHING: return "the server closed the connection without answering";
    case CURLE_COULDNT_CONNECT:
      if (os_errno) return "cannot connect (" + lower_first(std::strerror(static_cast<int>(os_errno))) + ")";
      return "cannot connect (" + detail + ")";
    case CURLE_COULDNT_RESOLVE_HOST:
      return "cannot resolve the host name (no network? --offline answers from the cache)";
    case CURLE_COULDNT_RESOLVE_PROXY: return "cannot resolve the proxy (" + detail + ")";
    case CURLE_FILESIZE_EXCEEDED:
      return "the body is larger than the limit of " + size_limit_text(settings_.max_body_bytes) +
             " per download (max-download-size in the configuration, EXTDEPS_MAX_DOWNLOAD_SIZE)";
    case CURLE_WRITE_ERROR:
      if (over_ == Over::download)
        return "the body went past the limit of " + size_limit_text(settings_.max_body_bytes) +
               " per download (max-download-size in the configuration, EXTDEPS_MAX_DOWNLOAD_SIZE); stopped";
      if (over_ == Over::run && budget_)
        return "the downloads of this run went past the limit of " + size_limit_text(budget_->limit) +
               " (max-download-total in the configuration, EXTDEPS_MAX_DOWNLOAD_TOTAL); stopped";
      if (write_errno_) return "cannot write " + body_.path() + ": " + std::strerror(write_errno_);
      return detail;
    case CURLE_BAD_CONTENT_ENCODING:
      return "cannot decode the " +
             (headers_.content_encoding.empty() ? std::string("encoded") : headers_.content_encoding) + " body (" +
             detail + ")";
    case CURLE_SSL_CACERT_BADFILE:
      if (!settings_.ca_bundle.empty())
        return "cannot use the CA bundle " + settings_.ca_bundle + " (from " + settings_.ca_bundle_source +
               "): " + detail;
      return detail;
    case CURLE_PEER_FAILED_VERIFICATION: return "the server's TLS certificate is not trusted (" + detail + ")";
    case CURLE_TOO_MANY_REDIRECTS: return "too many redirects";
    case CURLE_UNSUPPORTED_PROTOCOL: {
      // With redirect_protocols_for: an https URL sent to plain http.
      char* to = nullptr;
      curl().easy_getinfo(easy_, CURLINFO_REDIRECT_URL, &to);
      // The first URL is https (CURLOPT_PROTOCOLS_STR allows it): only a redirect lands here.
      if (std::string_view(redirect_protocols_for(url_)) == "https")
        return std::string("refused the redirect from https to plain http") + (to ? std::string(" (") + to + ")" : "") +
               ": what it serves could be changed by anyone on the way; ask the index's owner for https";
      return detail;
    }
    default: return detail;
  }
}

}  // namespace extdeps::fetch
