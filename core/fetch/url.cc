#include "core/fetch/url.h"
#include "core/util/text.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include "core/fetch/curl_api.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <memory>

namespace extdeps::fetch {

bool is_url(std::string_view value) {
  for (std::string_view scheme : {"https://", "http://", "file://"})
    if (value.size() > scheme.size() && std::equal(scheme.begin(), scheme.end(), value.begin(), [](char s, char v) {
          return s == std::tolower(static_cast<unsigned char>(v));
        }))
      return true;
  return false;
}

namespace {

struct UrlDeleter {
  void operator()(CURLU* u) const { curl().url_cleanup(u); }
};

std::string part(CURLU* u, CURLUPart which, unsigned flags = 0) {
  char* s = nullptr;
  if (curl().url_get(u, which, &s, flags) != CURLUE_OK || !s) return {};
  std::string out(s);
  curl().free(s);
  return out;
}

// "'REF' on BASE: not a valid URL reference (WHY)": the reference is blamed at the URL it was
// resolved against.
Error bad_reference(const std::string& base, const std::string& ref, const std::string& why) {
  const std::string reason = why.empty() ? "" : " (" + why + ")";
  Error e = bad_input("'" + ref + "' on " + base + ": not a valid URL reference" + reason);
  e.place = base;
  e.what = "'" + ref + "' is not a valid URL reference" + reason;
  return e;
}

}  // namespace

Result<ParsedUrl> parse_url(std::string_view url) {
  // file:///absolute/path with nothing to decode or normalise: what curl would answer, without
  // loading libcurl and its 25 libraries (about 5 ms, a third of a warm conda run on a local
  // channel). Anything else (a host, a query, a fragment, an escape, a dot segment) goes to curl.
  if (url.size() > 8 && (url.substr(0, 8) == "file:///" || url.substr(0, 8) == "FILE:///") &&
      url.find_first_of("?#%\\") == std::string_view::npos && url.find("/.") == std::string_view::npos &&
      std::none_of(url.begin(), url.end(), [](char c) { return static_cast<unsigned char>(c) <= 0x20 || c == 0x7f; })) {
    ParsedUrl p;
    p.scheme = "file";
    p.path = std::string(url.substr(7));
    return p;
  }
  if (auto loaded = load_curl(); !loaded.ok()) return at_place(loaded.error(), std::string(url));
  std::unique_ptr<CURLU, UrlDeleter> u(curl().url());
  if (!u) return error_at(ExitCode::environment, std::string(url), "out of memory");
  std::string text(url);
  if (auto rc = curl().url_set(u.get(), CURLUPART_URL, text.c_str(), 0); rc != CURLUE_OK)
    return error_at(ExitCode::bad_input, text, std::string("not a valid URL (") + curl().url_strerror(rc) + ")");
  ParsedUrl p;
  p.scheme = part(u.get(), CURLUPART_SCHEME);
  for (char& c : p.scheme) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  p.host = part(u.get(), CURLUPART_HOST);
  if (p.scheme == "file") {
    char* s = nullptr;
    auto rc = curl().url_get(u.get(), CURLUPART_PATH, &s, CURLU_URLDECODE);
    if (rc != CURLUE_OK || !s)
      return error_at(ExitCode::bad_input, text, std::string("not a valid file URL (") + curl().url_strerror(rc) + ")");
    p.path = s;
    curl().free(s);
    if (p.path.empty() || p.path.front() != '/') {
      Error e = bad_input(text + ": a file URL needs an absolute path (file:///path/to/file)");
      e.place = text;
      e.what = "a file URL needs an absolute path";
      e.expected = "file:///path/to/file";
      return e;
    }
    return p;
  }
  if (p.scheme != "http" && p.scheme != "https") {
    Error e =
        bad_input(text + ": unsupported URL scheme '" + p.scheme + "' (extdeps fetches http, https and file URLs)");
    e.place = text;
    e.what = "unsupported URL scheme '" + p.scheme + "'";
    e.expected = "an http, https or file URL";
    return e;
  }
  return p;
}

Result<std::string> resolve_url(const std::string& base, std::string_view reference) {
  if (auto loaded = load_curl(); !loaded.ok()) return at_place(loaded.error(), base);
  std::unique_ptr<CURLU, UrlDeleter> u(curl().url());
  if (!u) return error_at(ExitCode::environment, base, "out of memory");
  if (auto rc = curl().url_set(u.get(), CURLUPART_URL, base.c_str(), 0); rc != CURLUE_OK)
    return error_at(ExitCode::bad_input, base, std::string("not a valid URL (") + curl().url_strerror(rc) + ")");
  std::string ref(reference);
  // On a handle that holds a URL, a relative one is resolved against it.
  if (auto rc = curl().url_set(u.get(), CURLUPART_URL, ref.c_str(), 0); rc != CURLUE_OK)
    return bad_reference(base, ref, curl().url_strerror(rc));
  curl().url_set(u.get(), CURLUPART_FRAGMENT, nullptr, 0);
  std::string out = part(u.get(), CURLUPART_URL);
  if (out.empty()) return bad_reference(base, ref, {});
  if (!remote_may_name(base, out))
    return bad_reference(base, ref, "a remote page may name only http or https URLs, not " + out);
  return out;
}

bool remote_may_name(std::string_view document_url, std::string_view url) {
  auto scheme = [](std::string_view u) {
    const auto colon = u.find(':');
    return colon == std::string_view::npos ? std::string() : to_lower(std::string(u.substr(0, colon)));
  };
  const std::string from = scheme(document_url);
  if (from != "http" && from != "https") return true;
  const std::string to = scheme(url);
  return to == "http" || to == "https";
}

Result<Response> fetch_file_url(const Context& ctx, const Request& request, const ParsedUrl& url) {
  Response r;
  r.url = request.url;
  r.fetched_at = ctx.now();
  struct stat st {};
  if (::stat(url.path.c_str(), &st) != 0) {
    int e = errno;
    if ((e == ENOENT || e == ENOTDIR) && request.missing_ok) {
      r.found = false;
      return r;
    }
    if (e == ENOENT || e == ENOTDIR) return error_at(ExitCode::environment, request.url, "no such file");
    return error_at(ExitCode::environment, request.url, "cannot read " + url.path + ": " + std::strerror(e));
  }
  if (S_ISDIR(st.st_mode)) return error_at(ExitCode::environment, request.url, "is a folder, not a file");
  if (::access(url.path.c_str(), R_OK) != 0)
    return error_at(ExitCode::environment, request.url, "cannot read " + url.path + ": " + std::strerror(errno));
  r.body_path = url.path;
  return r;
}

bool warns_insecure_http(const ParsedUrl& url, bool allowed) {
  if (allowed || url.scheme != "http") return false;
  std::string host = to_lower(url.host);
  if (host.size() > 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  if (host == "localhost" || host.ends_with(".localhost") || host == "::1") return false;
  // 127.0.0.0/8 written as a dotted quad of digits.
  if (host.starts_with("127.") && host.find_first_not_of("0123456789.") == std::string::npos &&
      std::count(host.begin(), host.end(), '.') == 3)
    return false;
  return true;
}

}  // namespace extdeps::fetch
