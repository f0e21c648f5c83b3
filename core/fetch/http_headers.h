// What the fetcher reads from an HTTP answer's header lines, and what it makes of them: the
// status, the validators (ETag, Last-Modified), how long the body stays fresh (Cache-Control
// max-age, else Expires - Date) and whether it may be stored at all (no-store).
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace extdeps::fetch {

struct CacheControl {
  std::optional<long> max_age_s;
  bool no_store = false;
  bool no_cache = false;  // store, but revalidate before every use
};

// "max-age=600, no-transform": directive names are case-insensitive, unknown ones are ignored.
CacheControl parse_cache_control(std::string_view value);

struct ResponseHeaders {
  long status = 0;
  std::string reason;  // "Internal Server Error"
  std::string etag;
  std::string last_modified;
  std::string content_encoding;
  std::string content_type;
  std::optional<std::uint64_t> content_length;
  CacheControl cache_control;
  std::optional<std::int64_t> date_s, expires_s;  // seconds since the epoch
  bool expires_invalid = false;                   // "Expires: 0" and other unparsable dates mean already expired
  long age_s = 0;                                 // Age: how long caches on the way already held it

  // One line as libcurl hands it over, "\r\n" included. A status line ("HTTP/1.1 200 OK") starts
  // the headers of a new answer (after a redirect) and forgets the previous ones.
  void add_line(std::string_view line);
  // How long the body is fresh from the moment it was sent; nullopt: not at all (revalidate).
  // Without max-age or Expires nothing is fresh: no heuristic guesses from Last-Modified, so a
  // package index just published is seen at once.
  std::optional<long> lifetime_s() const;
};

// "3 h", "12 min", "5 s", "2 days": how old a cached copy is, for messages.
std::string age_text(std::chrono::seconds age);

}  // namespace extdeps::fetch
