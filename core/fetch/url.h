// URLs as the fetcher sees them: libcurl's parser says which scheme and, for file://, which local
// path (percent-decoded). file:// URLs (local mirrors) are answered in place, without the cache.
#pragma once

#include <string>
#include <string_view>

#include "core/context/context.h"
#include "core/fetch/fetch.h"
#include "core/util/result.h"

namespace extdeps::fetch {

// Whether a setting's value names a URL (http://, https://, file://) rather than a
// local path, by its scheme alone; parse_url says whether it is a good one.
bool is_url(std::string_view value);

struct ParsedUrl {
  std::string scheme;  // lower case: http, https or file
  std::string host;    // empty for file://
  std::string path;    // decoded, for file://: the local path
};

// A bad_input error naming the URL when it cannot be parsed, or its scheme is not one of http,
// https and file.
Result<ParsedUrl> parse_url(std::string_view url);

// Whether a plain http:// URL earns the warning that anyone on the network can change what it
// serves: not for https or file, not for a loopback host (localhost, 127.0.0.0/8, ::1: a mirror
// or proxy on this machine), not when the user allowed it (allow-insecure-http).
bool warns_insecure_http(const ParsedUrl& url, bool allowed);

// A reference resolved against an absolute base URL (RFC 3986 section 5: "../x", "/x", "//host/x"
// or a whole URL), without its fragment. Bad input naming both when either cannot be parsed, or
// when a remote base names what remote_may_name refuses.
Result<std::string> resolve_url(const std::string& base, std::string_view reference);

// Whether a document fetched from `document_url` may name `url`: a remote document (http, https)
// names only http(s) URLs, never a local file (a metalink naming file:///dev/zero would have it
// read); a local one (file://, a path) may name either.
bool remote_may_name(std::string_view document_url, std::string_view url);

// The file itself is the body: body_path is its path, nothing is copied.
Result<Response> fetch_file_url(const Context& ctx, const Request& request, const ParsedUrl& url);

}  // namespace extdeps::fetch
