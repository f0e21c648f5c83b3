// Debian versions: dpkg's parsing and order, and their rpm-order code (see deb.h).
#include "core/version/deb.h"
#include "core/util/text.h"

#include <algorithm>
#include <climits>

#include "core/version/detail.h"

namespace extdeps::version {

using detail::is_alpha;
using detail::is_ascii_space;
using detail::is_digit;

namespace {

const std::string_view kLetters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

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
    for (char c : digits) epoch = std::min<std::uint64_t>(epoch * 10 + static_cast<unsigned>(c - '0'), std::uint64_t{INT_MAX} + 1);
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

// dpkg's weight of a byte inside a non-digit run; the end of a run (a digit or the end) weighs 0.
int weight(int c) {
  if (c < 0 || is_digit(static_cast<char>(c))) return 0;
  if (c == '~') return -1;
  if (is_alpha(static_cast<char>(c))) return c;
  return c + 256;
}

int at(std::string_view s, size_t i) {
  return i < s.size() ? static_cast<unsigned char>(s[i]) : -1;
}

// The fixed-length letter code of one non-digit byte other than '~', ordered like weight().
void append_code(std::string& out, char c) {
  if (is_alpha(c)) {
    out += c >= 'a' ? 'a' : 'A';
    out += c;
    return;
  }
  auto u = static_cast<unsigned char>(c);
  out += 'z';
  out += kLetters[u / kLetters.size()];
  out += kLetters[u % kLetters.size()];
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
    if (parts.upstream.empty() && !parts.has_revision)
      return invalid(text, "nothing after the epoch colon");
  }
  if (parts.has_revision && parts.revision.empty()) return invalid(text, "the revision is empty");
  if (parts.upstream.empty()) return invalid(text, "the upstream version is empty");
  for (char c : parts.upstream)
    if (!is_digit(c) && !is_alpha(c) && std::string_view(".-+~:").find(c) == std::string_view::npos)
      return invalid(text,
                     "invalid character " + detail::quote_char(c) + " in the upstream version");
  for (char c : parts.revision)
    if (!is_digit(c) && !is_alpha(c) && std::string_view(".+~").find(c) == std::string_view::npos)
      return invalid(text, "invalid character " + detail::quote_char(c) + " in the revision");
  v.upstream = std::string(parts.upstream);
  v.revision = std::string(parts.revision);
  return v;
}

int deb_verrevcmp(std::string_view a, std::string_view b) {
  size_t i = 0, j = 0;
  while (i < a.size() || j < b.size()) {
    while ((i < a.size() && !is_digit(a[i])) || (j < b.size() && !is_digit(b[j]))) {
      int wa = weight(at(a, i)), wb = weight(at(b, j));
      if (wa != wb) return wa < wb ? -1 : 1;
      ++i, ++j;
    }
    size_t na = i, nb = j;
    while (i < a.size() && is_digit(a[i])) ++i;
    while (j < b.size() && is_digit(b[j])) ++j;
    if (int r = detail::compare_numbers(a.substr(na, i - na), b.substr(nb, j - nb))) return r;
  }
  return 0;
}

int deb_compare(std::string_view a, std::string_view b) {
  std::uint64_t ea = 0, eb = 0;
  Split pa = split_leniently(a, ea), pb = split_leniently(b, eb);
  if (ea != eb) return ea < eb ? -1 : 1;
  if (int r = deb_verrevcmp(pa.upstream, pb.upstream)) return r;
  return deb_verrevcmp(pa.revision, pb.revision);
}

std::string deb_part_code(std::string_view part) {
  std::string out;
  size_t i = 0;
  // Always at least one pair, so that an empty part codes like "0" (dpkg: equal).
  do {
    out += 'a';
    for (; i < part.size() && !is_digit(part[i]); ++i) {
      if (part[i] == '~')
        out += "~a";  // '~' sorts before the end; the 'a' starts a fresh letter run after it
      else
        append_code(out, part[i]);
    }
    size_t start = i;
    while (i < part.size() && is_digit(part[i])) ++i;
    out += detail::strip_zeros(part.substr(start, i - start));
  } while (i < part.size());
  out += 'a';
  return out;
}

Result<std::string> deb_normalize(std::string_view text) {
  auto v = parse_deb(text);
  if (!v) return v.error();
  return std::to_string(v->epoch) + ":" + deb_part_code(v->upstream) + "-" +
         deb_part_code(v->revision);
}

}  // namespace extdeps::version
