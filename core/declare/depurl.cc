// DepURLs (PEP 725): dep:type/namespace/name@version?qualifiers#subpath, parsed the way the PURL
// specification splits a purl (subpath, then qualifiers, then scheme, type, version, name), with
// the PEP's two changes: the `virtual` type and version ranges after '@'.
//
// Only the type is case-normalised. Namespace and name keep the case they were written in: the
// PEP 804 registry itself uses "dep:github/Reference-LAPACK/lapack", and mapping tables are keyed
// on that exact text.
#include <algorithm>
#include <array>
#include <cctype>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/declare/declare.h"
#include "core/declare/purl_types.h"

#include "core/util/text.h"

namespace extdeps {

namespace {

constexpr std::array<std::string_view, 2> kVirtualNamespaces = {"compiler", "interface"};

// What a specifier that is not a DepURL was expected to be.
constexpr std::string_view kLike = "a DepURL like 'dep:generic/zlib'";

bool is_alnum(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Decodes %XX escapes; `whole` is the DepURL, for the message.
Result<std::string> percent_decode(std::string_view s, std::string_view whole) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '%') {
      out += s[i];
      continue;
    }
    int hi = i + 1 < s.size() ? hex_value(s[i + 1]) : -1;
    int lo = i + 2 < s.size() ? hex_value(s[i + 2]) : -1;
    if (hi < 0 || lo < 0) {
      return error_at(ExitCode::bad_input, "",
                      "bad percent-escape '" + std::string(s.substr(i, 3)) + "' in '" + shorten(whole) + "'",
                      "'%' and two hex digits");
    }
    out += static_cast<char>(hi * 16 + lo);
    i += 2;
  }
  return out;
}

// Percent-encodes every byte that is not alphanumeric or in `safe`.
std::string percent_encode(std::string_view s, std::string_view safe) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (char c : s) {
    auto u = static_cast<unsigned char>(c);
    if (u < 0x80 && (is_alnum(c) || safe.find(c) != std::string_view::npos)) {
      out += c;
    } else {
      out += '%';
      out += kHex[u >> 4];
      out += kHex[u & 15];
    }
  }
  return out;
}

// What may stand unencoded in a namespace segment or a name. Anything else (a range operator, a
// space, a parenthesis) is a typo or a range that lacks its '@', and is reported as such.
constexpr std::string_view kSegmentSafe = "-._~+:";
constexpr std::string_view kVersionSafe = "-._~+!*<>=,";
constexpr std::string_view kQualifierSafe = "-._~+:/,=*";

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  while (true) {
    std::size_t at = s.find(sep, start);
    out.push_back(s.substr(start, at == std::string_view::npos ? std::string_view::npos : at - start));
    if (at == std::string_view::npos) break;
    start = at + 1;
  }
  return out;
}

// A byte for a message: itself when printable ASCII, else \xNN.
std::string shown_byte(unsigned char u) {
  static constexpr char kHex[] = "0123456789abcdef";
  if (u >= 0x20 && u < 0x7f) return std::string(1, static_cast<char>(u));
  return std::string("\\x") + kHex[u >> 4] + kHex[u & 15];
}

bool valid_utf8(std::string_view s) { return utf8_valid_length(s) == s.size(); }

// What a decoded part of a DepURL must not hold, whatever its escapes said: a control character
// (a %0A forges lines in text output and code in generated files, %1B drives terminals, %00
// cuts C strings) or bytes that are not UTF-8. nullopt when it is clean.
std::optional<std::string> decoded_problem(std::string_view decoded) {
  for (char c : decoded) {
    auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7f) return "decodes to the control character " + shown_byte(u);
  }
  if (!valid_utf8(decoded)) return std::string("decodes to bytes that are not UTF-8");
  return std::nullopt;
}

Result<std::string> decode_segment(std::string_view raw, std::string_view what, std::string_view whole) {
  for (char c : raw) {
    if (is_alnum(c) || c == '%' || kSegmentSafe.find(c) != std::string_view::npos) continue;
    std::string msg = "unexpected character '" + shown_byte(static_cast<unsigned char>(c)) + "' in the " +
                      std::string(what) + " of '" + shorten(whole) + "'";
    if (std::string_view("<>=!~").find(c) != std::string_view::npos) {
      const std::string hint = "a version range goes after '@', like dep:generic/gdal@>=3.4";
      return worded(ExitCode::bad_input, msg + " (" + hint + ")", {}, msg, "", hint);
    }
    return error_at(ExitCode::bad_input, "", msg);
  }
  auto decoded = percent_decode(raw, whole);
  if (!decoded) return decoded;
  if (auto problem = decoded_problem(*decoded))
    return error_at(ExitCode::bad_input, "",
                    "the " + std::string(what) + " '" + std::string(raw) + "' of '" + shorten(whole) + "' " + *problem);
  // PURL: a '/' inside a segment is never percent-decoded into one; dep:github/apache%2Farrow
  // would otherwise be the same id as dep:github/apache/arrow.
  if (decoded->find('/') != std::string::npos)
    return error_at(ExitCode::bad_input, "",
                    (what == "namespace" ? std::string("namespace segment") : std::string(what)) + " '" +
                        std::string(raw) + "' of '" + shorten(whole) + "' decodes to a '/'");
  return decoded;
}

Result<std::map<std::string, std::string>> parse_qualifiers(std::string_view text, std::string_view whole) {
  std::map<std::string, std::string> out;
  for (std::string_view pair : split(text, '&')) {
    if (pair.empty()) continue;
    std::size_t eq = pair.find('=');
    if (eq == std::string_view::npos || eq == 0) {
      const std::string msg = "qualifier '" + std::string(pair) + "' in '" + shorten(whole) + "' is not key=value";
      return worded(ExitCode::bad_input, msg, {}, msg, "key=value");
    }
    std::string key = to_lower(pair.substr(0, eq));
    bool key_ok =
        std::isalpha(static_cast<unsigned char>(key[0])) != 0 &&
        std::all_of(key.begin(), key.end(), [](char c) { return is_alnum(c) || c == '.' || c == '-' || c == '_'; });
    if (!key_ok) {
      return error_at(ExitCode::bad_input, "", "bad qualifier key '" + key + "' in '" + shorten(whole) + "'",
                      "letters, digits, '.', '-' or '_', starting with a letter");
    }
    auto value = percent_decode(pair.substr(eq + 1), whole);
    if (!value) return value.error();
    if (auto problem = decoded_problem(*value))
      return error_at(ExitCode::bad_input, "", "qualifier '" + key + "' of '" + shorten(whole) + "' " + *problem);
    if (value->empty()) continue;  // PURL: a key with an empty value is dropped
    if (out.count(key)) {
      return error_at(ExitCode::bad_input, "", "qualifier '" + key + "' appears twice in '" + shorten(whole) + "'");
    }
    out.emplace(std::move(key), std::move(*value));
  }
  return out;
}

Result<std::string> parse_subpath(std::string_view text, std::string_view whole) {
  std::string out;
  for (std::string_view seg : split(text, '/')) {
    if (seg.empty() || seg == "." || seg == "..") continue;
    auto decoded = percent_decode(seg, whole);
    if (!decoded) return decoded.error();
    if (auto problem = decoded_problem(*decoded))
      return error_at(ExitCode::bad_input, "", "the subpath of '" + shorten(whole) + "' " + *problem);
    // As in a name: a segment never decodes to a '/' (it would be two segments once printed).
    if (decoded->find('/') != std::string::npos)
      return error_at(ExitCode::bad_input, "",
                      "the subpath segment '" + std::string(seg) + "' of '" + shorten(whole) + "' decodes to a '/'");
    if (!out.empty()) out += '/';
    out += *decoded;
  }
  return out;
}

}  // namespace

namespace declare {

std::optional<std::string> did_you_mean(std::string_view word, std::span<const std::string_view> candidates) {
  // Optimal string alignment distance: insertions, deletions, substitutions and transpositions
  // of neighbours each cost one.
  auto distance = [](std::string_view a, std::string_view b) {
    std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
    for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
    for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
      for (std::size_t j = 1; j <= b.size(); ++j) {
        std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
        d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
        if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
          d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
        }
      }
    }
    return d[a.size()][b.size()];
  };
  // A word far longer than the limits allow is near nothing: no matrix of its length is built.
  if (word.size() > limits::kMaxSuggestLength) return std::nullopt;
  std::string w = to_lower(word);
  std::size_t limit = w.size() <= 3 ? 1 : (w.size() <= 6 ? 2 : 3);
  std::optional<std::string> best;
  std::size_t best_distance = limit + 1;
  for (std::string_view c : candidates) {
    if (c.size() > w.size() + limit || w.size() > c.size() + limit) continue;  // more edits than allowed
    std::size_t dist = distance(w, to_lower(c));
    if (dist < best_distance) {
      best_distance = dist;
      best = std::string(c);
    }
  }
  return best;
}

namespace {

// The scheme before the first ':' of `rest` (taken off, with the slashes after it): "dep", or the
// old spellings "pkg" and "virtual", which set *legacy_spelling; "virtual" is the type it names.
Result<std::string> take_scheme(std::string_view& rest, std::string_view text, bool* legacy_spelling) {
  std::size_t colon = rest.find(':');
  std::size_t slash = rest.find('/');
  if (colon == std::string_view::npos || (slash != std::string_view::npos && slash < colon)) {
    const std::string msg = "expected " + std::string(kLike) + ", got '" + shorten(text) + "'";
    return worded(ExitCode::bad_input, msg, {}, msg, std::string(kLike));
  }
  std::string scheme = to_lower(rest.substr(0, colon));
  rest = rest.substr(colon + 1);
  std::string legacy_type;
  if (scheme == "pkg") {
    if (legacy_spelling) *legacy_spelling = true;
  } else if (scheme == "virtual") {
    if (legacy_spelling) *legacy_spelling = true;
    legacy_type = "virtual";
  } else if (scheme != "dep") {
    return error_at(ExitCode::bad_input, "", "unknown DepURL scheme '" + scheme + ":' in '" + shorten(text) + "'",
                    "'dep:'");
  }
  while (!rest.empty() && rest.front() == '/') rest.remove_prefix(1);
  while (!rest.empty() && rest.back() == '/') rest.remove_suffix(1);
  return legacy_type;
}

// The type: the first segment of `rest` (taken off), or the old scheme's; one the grammar knows.
Result<std::string> take_type(std::string_view& rest, std::string_view text, const std::string& legacy_type) {
  std::string type = legacy_type;
  if (type.empty()) {
    std::size_t slash = rest.find('/');
    if (slash == std::string_view::npos) {
      std::string only = to_lower(rest);
      if (purl_type(only)) {
        return error_at(ExitCode::bad_input, "", "DepURL '" + shorten(text) + "' has no name", "dep:" + only + "/name");
      }
      return error_at(ExitCode::bad_input, "", "DepURL '" + shorten(text) + "' has no type", "dep:type/name");
    }
    type = to_lower(rest.substr(0, slash));
    rest = rest.substr(slash + 1);
  }
  if (type.empty()) {
    return error_at(ExitCode::bad_input, "", "DepURL '" + shorten(text) + "' has no type", "dep:type/name");
  }
  if (!purl_type(type)) {
    const std::string what = "unknown DepURL type '" + shorten(type) + "'";
    if (auto near = did_you_mean(type, purl_type_names())) {
      const std::string hint = "did you mean '" + *near + "'?";
      return worded(ExitCode::bad_input, what + " (" + hint + ")", {}, what, "", hint);
    }
    return error_at(ExitCode::bad_input, "", what,
                    "'virtual', 'generic' or a PURL type such as " + purl_type_examples());
  }
  return type;
}

// The version after the last '@' of `rest` (taken off), percent-decoded; "" when there is none.
Result<std::string> take_version(std::string_view& rest, std::string_view text, std::string_view whole) {
  std::size_t at = rest.rfind('@');
  if (at == std::string_view::npos) return std::string();
  std::string_view raw = rest.substr(at + 1);
  if (raw.empty()) {
    return error_at(ExitCode::bad_input, "", "DepURL '" + shorten(text) + "' has an empty version after '@'");
  }
  for (char c : raw) {
    if (std::isspace(static_cast<unsigned char>(c)) || static_cast<unsigned char>(c) < 0x20) {
      const std::string what = "unexpected whitespace in the version of '" + shorten(text) + "'";
      const std::string hint = "write the range without spaces, or after the DepURL";
      return worded(ExitCode::bad_input, what + " (" + hint + ")", {}, what, "", hint);
    }
  }
  auto version = percent_decode(raw, whole);
  if (!version) return version.error();
  if (auto problem = decoded_problem(*version))
    return error_at(ExitCode::bad_input, "", "the version of '" + std::string(text) + "' " + *problem);
  rest = rest.substr(0, at);
  return version;
}

// The name (the last segment of `rest`) and namespace (the ones before it) into `url`; a virtual
// DepURL's namespace is one of the two the grammar has.
Result<void> read_name(std::string_view rest, std::string_view text, DepUrl& url) {
  std::vector<std::string_view> segments;
  for (std::string_view seg : split(rest, '/')) {
    if (!seg.empty()) segments.push_back(seg);
  }
  if (segments.empty()) {
    return error_at(ExitCode::bad_input, "", "DepURL '" + shorten(text) + "' has no name", "dep:" + url.type + "/name");
  }
  auto name = decode_segment(segments.back(), "name", text);
  if (!name) return name.error();
  url.name = std::move(*name);
  for (std::size_t i = 0; i + 1 < segments.size(); ++i) {
    auto seg = decode_segment(segments[i], "namespace", text);
    if (!seg) return seg.error();
    if (!url.ns.empty()) url.ns += '/';
    url.ns += *seg;
  }
  if (url.type == "virtual" &&
      std::find(kVirtualNamespaces.begin(), kVirtualNamespaces.end(), url.ns) == kVirtualNamespaces.end()) {
    std::string got = url.ns.empty() ? "none" : "'" + url.ns + "'";
    const std::string msg =
        "virtual DepURL '" + shorten(text) + "' must have the namespace 'compiler' or 'interface', got " + got;
    return worded(ExitCode::bad_input, msg, {}, msg, "the namespace 'compiler' or 'interface'");
  }
  return {};
}

}  // namespace

Result<DepUrl> parse_depurl(std::string_view text, bool* legacy_spelling) {
  if (legacy_spelling) *legacy_spelling = false;
  std::string_view whole = text;
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.remove_suffix(1);
  if (text.empty()) {
    const std::string msg = "expected " + std::string(kLike) + ", got an empty string";
    return worded(ExitCode::bad_input, msg, {}, msg, std::string(kLike));
  }

  DepUrl url;
  // Subpath and qualifiers come off the right end first, as the PURL specification does it.
  std::string_view rest = text;
  if (std::size_t hash = rest.rfind('#'); hash != std::string_view::npos) {
    auto sub = parse_subpath(rest.substr(hash + 1), whole);
    if (!sub) return sub.error();
    url.subpath = std::move(*sub);
    rest = rest.substr(0, hash);
  }
  if (std::size_t q = rest.rfind('?'); q != std::string_view::npos) {
    auto quals = parse_qualifiers(rest.substr(q + 1), whole);
    if (!quals) return quals.error();
    url.qualifiers = std::move(*quals);
    rest = rest.substr(0, q);
  }
  // Then from the left: the scheme and the type; the version from the right; the name is left.
  auto legacy_type = take_scheme(rest, text, legacy_spelling);
  if (!legacy_type) return legacy_type.error();
  auto type = take_type(rest, text, *legacy_type);
  if (!type) return type.error();
  url.type = std::move(*type);
  auto version = take_version(rest, text, whole);
  if (!version) return version.error();
  url.version = std::move(*version);
  if (auto named = read_name(rest, text, url); !named) return named.error();
  return url;
}

}  // namespace declare

std::string DepUrl::id() const {
  std::string out = "dep:" + type + "/";
  if (!ns.empty()) out += ns + "/";
  return out + name;
}

std::string DepUrl::str() const {
  std::string out = "dep:" + type + "/";
  if (!ns.empty()) {
    for (std::string_view seg : split(ns, '/')) out += percent_encode(seg, kSegmentSafe) + "/";
  }
  out += percent_encode(name, kSegmentSafe);
  if (!version.empty()) out += "@" + percent_encode(version, kVersionSafe);
  if (!qualifiers.empty()) {
    char sep = '?';
    for (const auto& [key, value] : qualifiers) {
      out += sep + key + "=" + percent_encode(value, kQualifierSafe);
      sep = '&';
    }
  }
  if (!subpath.empty()) {
    out += '#';
    bool first = true;
    for (std::string_view seg : split(subpath, '/')) {
      if (!first) out += '/';
      out += percent_encode(seg, kSegmentSafe);
      first = false;
    }
  }
  return out;
}

std::string SourceSpan::str() const {
  std::string out = file;
  if (line > 0) {
    out += ":" + std::to_string(line);
    if (column > 0) out += ":" + std::to_string(column);
  }
  return out;
}

}  // namespace extdeps
