// External dependency specifiers: a DepURL, an optional version range, an optional PEP 508
// marker after ';'. The range may be written in the DepURL ("dep:generic/gdal@>=3.4") or after it
// the way PEP 508 writes it ("dep:generic/gdal >=3.4", "dep:generic/gdal (>=3.4)",
// "dep:generic/gdal>=3.4"); either way it ends up in Requirement::range.
#include <cctype>
#include <string>

#include "core/declare/declare.h"

#include "core/util/text.h"

namespace extdeps::declare {

namespace {

// "expected EXPECTED in 'TEXT'", with EXPECTED apart.
Error expected_in(const std::string& expected, std::string_view text) {
  const std::string msg = "expected " + expected + " in '" + shorten(text) + "'";
  return worded(ExitCode::bad_input, msg, {}, msg, expected);
}

// Where the DepURL ends: at whitespace, '(' or, before any '@', '?' or '#', at the start of a
// comparison operator.
std::size_t depurl_end(std::string_view s) {
  bool in_tail = false;  // past '@', '?' or '#': operators belong to the DepURL there
  for (std::size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (std::isspace(static_cast<unsigned char>(c)) || c == '(') return i;
    if (c == '@' || c == '?' || c == '#') in_tail = true;
    if (in_tail) continue;
    if (c == '<' || c == '>') return i;
    if (i + 1 < s.size() && s[i + 1] == '=' && (c == '=' || c == '!' || c == '~')) return i;
  }
  return s.size();
}

}  // namespace

Result<Requirement> parse_requirement(std::string_view text, bool* legacy_spelling) {
  Requirement req;
  req.spec = std::string(text);
  std::string_view body = text;
  if (std::size_t semi = body.find(';'); semi != std::string_view::npos) {
    std::string_view marker = trim(body.substr(semi + 1));
    if (marker.empty()) return expected_in("a marker after ';'", text);
    if (auto ok = check_marker(marker); !ok) return ok.error();
    req.marker = std::string(marker);
    body = body.substr(0, semi);
  }
  body = trim(body);
  if (body.empty()) {
    const std::string like = "a DepURL like 'dep:generic/zlib'";
    const std::string msg = "expected " + like + ", got '" + shorten(text) + "'";
    return worded(ExitCode::bad_input, msg, {}, msg, like);
  }

  std::size_t end = depurl_end(body);
  auto url = parse_depurl(body.substr(0, end), legacy_spelling);
  if (!url) return url.error();
  req.url = std::move(*url);

  std::string_view after = trim(body.substr(end));
  if (!after.empty() && after.front() == '(') {
    if (after.back() != ')') {
      return expected_in("')' to close the version range", text);
    }
    after = trim(after.substr(1, after.size() - 2));
    if (after.empty()) {
      return expected_in("a version range inside '()'", text);
    }
  }
  if (!after.empty() && !req.url.version.empty()) {
    const std::string what =
        "two version ranges in '" + shorten(text) + "': '@" + req.url.version + "' and '" + std::string(after) + "'";
    return worded(ExitCode::bad_input, what + " (keep one)", {}, what, "", "keep one");
  }
  std::string_view range_text = after.empty() ? std::string_view(req.url.version) : after;
  if (!range_text.empty()) {
    auto range = parse_range(range_text);
    if (!range) return range.error();
    req.range = std::move(*range);
  }
  return req;
}

}  // namespace extdeps::declare
