#include "core/fetch/http_headers.h"

#include "core/util/text.h"

#include "core/fetch/curl_api.h"

#include <algorithm>
#include <cctype>
#include <charconv>

namespace extdeps::fetch {

namespace {

template <class T>
std::optional<T> number(std::string_view s) {
  s = trim(s);
  if (s.size() >= 2 && s.front() == '"' && s.back() == '"') s = s.substr(1, s.size() - 2);
  T v{};
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
  return v;
}

std::optional<std::int64_t> http_date(std::string_view s) {
  // Headers are read from responses, which libcurl delivered; a test may parse them first.
  if (!load_curl().ok()) return std::nullopt;
  std::string text(trim(s));
  time_t t = curl().getdate(text.c_str(), nullptr);
  if (t < 0) return std::nullopt;
  return static_cast<std::int64_t>(t);
}

}  // namespace

CacheControl parse_cache_control(std::string_view value) {
  CacheControl cc;
  while (!value.empty()) {
    auto comma = value.find(',');
    auto item = trim(value.substr(0, comma));
    value = comma == std::string_view::npos ? std::string_view{} : value.substr(comma + 1);
    auto eq = item.find('=');
    std::string name = to_lower(trim(item.substr(0, eq)));
    std::string_view arg = eq == std::string_view::npos ? std::string_view{} : item.substr(eq + 1);
    if (name == "max-age") {
      // A malformed max-age makes the answer stale (RFC 9111 4.2.1), never fresh forever.
      auto v = number<long>(arg);
      cc.max_age_s = v && *v >= 0 ? *v : 0;
    } else if (name == "no-store") {
      cc.no_store = true;
    } else if (name == "no-cache") {
      cc.no_cache = true;
    }
  }
  return cc;
}

void ResponseHeaders::add_line(std::string_view line) {
  line = trim(line);
  if (line.size() >= 5 && line.substr(0, 5) == "HTTP/") {
    *this = ResponseHeaders{};
    auto sp = line.find(' ');
    if (sp == std::string_view::npos) return;
    auto rest = line.substr(sp + 1);
    auto sp2 = rest.find(' ');
    status = number<long>(rest.substr(0, sp2)).value_or(0);
    if (sp2 != std::string_view::npos) reason = std::string(trim(rest.substr(sp2 + 1)));
    return;
  }
  auto colon = line.find(':');
  if (colon == std::string_view::npos) return;
  std::string name = to_lower(trim(line.substr(0, colon)));
  std::string_view value = trim(line.substr(colon + 1));
  if (name == "etag") {
    etag = std::string(value);
  } else if (name == "last-modified") {
    last_modified = std::string(value);
  } else if (name == "content-encoding") {
    content_encoding = to_lower(value);
  } else if (name == "content-type") {
    content_type = std::string(value);
  } else if (name == "content-length") {
    content_length = number<std::uint64_t>(value);
  } else if (name == "cache-control") {
    // Several Cache-Control lines add up.
    auto more = parse_cache_control(value);
    if (more.max_age_s) cache_control.max_age_s = more.max_age_s;
    cache_control.no_store |= more.no_store;
    cache_control.no_cache |= more.no_cache;
  } else if (name == "date") {
    date_s = http_date(value);
  } else if (name == "expires") {
    expires_s = http_date(value);
    expires_invalid = !expires_s;
  } else if (name == "age") {
    age_s = std::max(0L, number<long>(value).value_or(0));
  }
}

std::optional<long> ResponseHeaders::lifetime_s() const {
  if (cache_control.no_cache) return 0;
  if (cache_control.max_age_s) return cache_control.max_age_s;
  if (expires_invalid) return 0;
  if (expires_s && date_s) return std::max<std::int64_t>(0, *expires_s - *date_s);
  return std::nullopt;
}

std::string age_text(std::chrono::seconds age) {
  long s = std::max<long>(0, static_cast<long>(age.count()));
  if (s < 60) return std::to_string(s) + " s";
  if (s < 3600) return std::to_string(s / 60) + " min";
  if (s < 48 * 3600) return std::to_string(s / 3600) + " h";
  return std::to_string(s / 86400) + " days";
}

}  // namespace extdeps::fetch
