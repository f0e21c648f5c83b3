// Debian versions: dpkg's parsing and order, and their rpm-order code (see deb_version.h).
#include "providers/apt/deb_version.h"

#include <algorithm>
#include <climits>

#include "core/util/text.h"
#include "core/version/detail.h"
#include "core/version/part_order.h"

namespace extdeps::version {

using detail::is_alpha;
using detail::is_ascii_space;
using detail::is_digit;

namespace {

// No place of its own: the caller puts it where the version was read (at_place).
Error invalid(std::string_view text, std::string_view why) {
  return error_at(ExitCode::bad_input, "", "invalid deb version '" + shorten(text) + "': " + std::string(why));
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_ascii_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_ascii_space(s.back())) s.remove_suffix(1);
  return s;
}

// The three parts before any check: what both parse_deb and the lenient compare start from.
struct Split {
  std::string_view epoch;  // empty when there is no ':'
  bool has_epoch = false;
  std::string_view upstream, revision;
  bool has_revision = false;
};

Split split(std::string_view s) {
  Split out;
  if (auto colon = s.find(':'); colon != std::string_view::npos) {
    out.has_epoch = true;
    out.epoch = s.substr(0, colon);
    s.remove_prefix(colon + 1);
  }
  if (auto hyphen = s.rfind('-'); hyphen != std::string_view::npos) {
    out.has_revision = true;
    out.revision = s.substr(hyphen + 1);
    s = s.substr(0, hyphen);
  }
  out.upstream = s;
  return out;
}

// The lenient split deb_compare uses: a prefix before ':' that is not a number is no epoch (it
// stays in the upstream part) and counts as epoch 0. A number is read as dpkg's strtol reads it:
// any count of leading zeros ("0000000000000000000:002" is epoch 0, dpkg agrees), an optional
// '+'; one above INT_MAX (dpkg: "too big") saturates, so it sorts after every valid epoch.
Split split_leniently(std::string_view s, std::uint64_t& epoch) {
  s = trim(s);
  Split p = split(s);
  epoch = 0;
  std::string_view digits = p.epoch;
  if (!digits.empty() && digits.front() == '+') digits.remove_prefix(1);
  bool numeric = p.has_epoch && !digits.empty();
  for (char c : digits) numeric = numeric && is_digit(c);
  if (numeric) {
    for (char c : digits)
      epoch = std::min<std::uint64_t>(epoch * 10 + static_cast<unsigned>(c - '0'), std::uint64_t{INT_MAX} + 1);
    return p;
  }
  Split whole;
  whole.upstream = s;
  if (auto hyphen = s.rfind('-'); hyphen != std::string_view::npos) {
    whole.has_revision = true;
    whole.revision = s.substr(hyphen + 1);
    whole.upstream = s.substr(0, hyphen);
  }
  return whole;
}

}  // namespace

Result<DebVersion> parse_deb(std::string_view text) {
  std::string_view s = trim(text);
  if (s.empty()) return invalid(text, "it is empty");
  for (char c : s)
    if (is_ascii_space(c)) return invalid(text, "it has embedded spaces");
  Split parts = split(s);
  DebVersion v;
  if (parts.has_epoch) {
    if (parts.epoch.empty()) return invalid(text, "the epoch is empty");
    std::uint64_t epoch = 0;
    std::string_view digits = parts.epoch;
    if (digits.size() > 1 && digits.front() == '+') digits.remove_prefix(1);  // strtol's sign, as dpkg reads it
    for (char c : digits) {
      if (!is_digit(c)) return invalid(text, "the epoch is not a number");
      epoch = epoch * 10 + static_cast<unsigned>(c - '0');
      if (epoch > INT_MAX) return invalid(text, "the epoch is too big");
    }
    v.epoch = static_cast<std::uint32_t>(epoch);
    if (parts.upstream.empty() && !parts.has_revision) return invalid(text, "nothing after the epoch colon");
  }
  if (parts.has_revision && parts.revision.empty()) return invalid(text, "the revision is empty");
  if (parts.upstream.empty()) return invalid(text, "the upstream version is empty");
  for (char c : parts.upstream)
    if (!is_digit(c) && !is_alpha(c) && std::string_view(".-+~:").find(c) == std::string_view::npos)
      return invalid(text, "invalid character " + detail::quote_char(c) + " in the upstream version");
  for (char c : parts.revision)
    if (!is_digit(c) && !is_alpha(c) && std::string_view(".+~").find(c) == std::string_view::npos)
      return invalid(text, "invalid character " + detail::quote_char(c) + " in the revision");
  v.upstream = std::string(parts.upstream);
  v.revision = std::string(parts.revision);
  return v;
}

int deb_compare(std::string_view a, std::string_view b) {
  std::uint64_t ea = 0, eb = 0;
  Split pa = split_leniently(a, ea), pb = split_leniently(b, eb);
  if (ea != eb) return ea < eb ? -1 : 1;
  if (int r = part_compare(pa.upstream, pb.upstream)) return r;
  return part_compare(pa.revision, pb.revision);
}

Result<std::string> deb_normalize(std::string_view text) {
  auto v = parse_deb(text);
  if (!v) return v.error();
  return std::to_string(v->epoch) + ":" + part_code(v->upstream) + "-" + part_code(v->revision);
}

const Scheme deb_scheme{"deb", deb_compare, deb_normalize};

}  // namespace extdeps::version
