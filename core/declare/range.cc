// Version ranges in PEP 440 terms: ">=3.4,<4", "==1.2.*", "~=2.2", "!=1.5". Ordering is
// core/version's PEP 440 comparator; this file only parses specifiers and applies them.
//
// PEP 440's exclusive-comparison rules are applied (">1.0" does not match 1.0.post1 or 1.0+local,
// "<20" does not match 20.0rc1). Its default pre-release exclusion (">=1" not matching "2.0rc1"
// unless asked) is not: native package versions reach us already chosen by their managers, and a
// range here filters what exists rather than picking what to download.
#include <algorithm>
#include <cctype>
#include <functional>
#include <string>
#include <vector>

#include "core/declare/declare.h"

#include "core/util/text.h"
#include "core/version/pep440.h"
#include "core/version/version.h"

namespace extdeps {

namespace {

// A valid PEP 440 version, with the spellings its normalisation rules accept ("v1.0",
// "1.0-rc.1", "1.0.post-2", "1.0_dev3", upper case): the regular expression
//
//   v?(\d+!)?\d+(\.\d+)*
//   ([-_.]?(a|b|c|rc|alpha|beta|pre|preview)[-_.]?\d*)?
//   (-\d+|[-_.]?(post|rev|r)[-_.]?\d*)?
//   ([-_.]?dev[-_.]?\d*)?
//   (\+[a-z0-9]+([-_.][a-z0-9]+)*)?
//
// matched case-insensitively, as a set of positions stepped through each piece in turn (every
// way a piece can match is kept, as the regex's backtracking would). Hand-written: compiling the
// std::regex was a twentieth of a warm resolve.
bool is_pep440(std::string_view v) {
  if (v.size() > limits::kMaxVersionLength) return false;
  const std::string s = to_lower(v);
  using Ends = std::vector<std::size_t>;
  auto digit = [&](std::size_t i) { return i < s.size() && s[i] >= '0' && s[i] <= '9'; };
  auto alnum = [&](std::size_t i) { return digit(i) || (i < s.size() && s[i] >= 'a' && s[i] <= 'z'); };
  auto sep = [&](std::size_t i) { return i < s.size() && (s[i] == '-' || s[i] == '_' || s[i] == '.'); };
  auto step = [](const Ends& from, auto&& piece) {
    Ends out;
    for (std::size_t p : from) piece(p, out);
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
  };
  auto optional = [&](const Ends& from, auto&& piece) {
    Ends out = step(from, piece);
    out.insert(out.end(), from.begin(), from.end());
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
  };
  auto digits_plus = [&](std::size_t p, Ends& out) {
    for (std::size_t q = p; digit(q); ++q) out.push_back(q + 1);
  };
  auto digits_star = [&](std::size_t p, Ends& out) {
    out.push_back(p);
    digits_plus(p, out);
  };
  auto sep_opt = [&](std::size_t p, Ends& out) {
    out.push_back(p);
    if (sep(p)) out.push_back(p + 1);
  };
  auto words = [&](std::vector<std::string_view> ws) {
    return [&s, ws = std::move(ws)](std::size_t p, Ends& out) {
      for (std::string_view w : ws)
        if (std::string_view(s).substr(p, w.size()) == w) out.push_back(p + w.size());
    };
  };
  auto seq = [&](std::vector<std::function<void(std::size_t, Ends&)>> parts) {
    return [&step, parts = std::move(parts)](std::size_t p, Ends& out) {
      Ends at{p};
      for (const auto& part : parts) at = step(at, part);
      out.insert(out.end(), at.begin(), at.end());
    };
  };

  Ends at{0};
  at = optional(at, words({"v"}));
  at = optional(at, [&](std::size_t p, Ends& out) {
    Ends d;
    digits_plus(p, d);
    for (std::size_t q : d)
      if (q < s.size() && s[q] == '!') out.push_back(q + 1);
  });
  at = step(at, digits_plus);
  // (\.\d+)*: every number of further release segments.
  for (Ends more = at; !more.empty();) {
    more = step(more, [&](std::size_t p, Ends& out) {
      if (p < s.size() && s[p] == '.') digits_plus(p + 1, out);
    });
    at.insert(at.end(), more.begin(), more.end());
  }
  std::sort(at.begin(), at.end());
  at.erase(std::unique(at.begin(), at.end()), at.end());
  at = optional(at,
                seq({sep_opt, words({"a", "b", "c", "rc", "alpha", "beta", "pre", "preview"}), sep_opt, digits_star}));
  at = optional(at, [&](std::size_t p, Ends& out) {
    if (p < s.size() && s[p] == '-') digits_plus(p + 1, out);
    seq({sep_opt, words({"post", "rev", "r"}), sep_opt, digits_star})(p, out);
  });
  at = optional(at, seq({sep_opt, words({"dev"}), sep_opt, digits_star}));
  at = optional(at, [&](std::size_t p, Ends& out) {
    if (p >= s.size() || s[p] != '+' || !alnum(p + 1)) return;
    std::size_t q = p + 1;
    for (;;) {
      while (alnum(q)) ++q;
      out.push_back(q);
      if (!sep(q) || !alnum(q + 1)) return;
      ++q;
    }
  });
  return std::find(at.begin(), at.end(), s.size()) != at.end();
}

// The epoch and release numbers at the front of a version ("1!2.3rc1" -> 1, [2, 3]).
struct Release {
  long epoch = 0;
  std::vector<long> numbers;
};

std::optional<Release> leading_release(std::string_view v) {
  Release r;
  if (!v.empty() && (v.front() == 'v' || v.front() == 'V')) v.remove_prefix(1);
  auto read_number = [&v]() -> std::optional<long> {
    std::size_t n = 0;
    while (n < v.size() && std::isdigit(static_cast<unsigned char>(v[n]))) ++n;
    if (n == 0 || n > 15) return std::nullopt;
    long value = std::stol(std::string(v.substr(0, n)));
    v.remove_prefix(n);
    return value;
  };
  auto first = read_number();
  if (!first) return std::nullopt;
  if (!v.empty() && v.front() == '!') {
    v.remove_prefix(1);
    r.epoch = *first;
    first = read_number();
    if (!first) return std::nullopt;
  }
  r.numbers.push_back(*first);
  while (v.size() >= 2 && v.front() == '.' && std::isdigit(static_cast<unsigned char>(v[1]))) {
    v.remove_prefix(1);
    r.numbers.push_back(*read_number());
  }
  return r;
}

// (\d+!)?\d+(\.\d+)*: "1.2", "1!2.0".
bool is_release_prefix(std::string_view v) {
  auto digits = [&v]() {
    std::size_t n = 0;
    while (n < v.size() && v[n] >= '0' && v[n] <= '9') ++n;
    v.remove_prefix(n);
    return n > 0;
  };
  if (!digits()) return false;
  if (!v.empty() && v.front() == '!') {
    v.remove_prefix(1);
    if (!digits()) return false;
  }
  while (!v.empty()) {
    if (v.front() != '.') return false;
    v.remove_prefix(1);
    if (!digits()) return false;
  }
  return true;
}

// "==1.2.*": the candidate's release, zero-padded, starts with the prefix's numbers.
bool prefix_matches(std::string_view prefix, std::string_view candidate) {
  auto p = leading_release(prefix);
  auto c = leading_release(candidate);
  if (!p || !c || p->epoch != c->epoch) return false;
  for (std::size_t i = 0; i < p->numbers.size(); ++i) {
    long have = i < c->numbers.size() ? c->numbers[i] : 0;
    if (have != p->numbers[i]) return false;
  }
  return true;
}

std::string_view op_text(const VersionConstraint& c) {
  switch (c.op) {
    case DepOp::eq: return "==";
    case DepOp::ne: return "!=";
    case DepOp::lt: return "<";
    case DepOp::le: return "<=";
    case DepOp::gt: return ">";
    case DepOp::ge: return ">=";
    case DepOp::any:
    case DepOp::spec: break;
  }
  return "";
}

Result<void> parse_one(std::string_view piece, std::string_view whole, std::vector<VersionConstraint>& out) {
  struct OpSpelling {
    std::string_view text;
    DepOp op;
  };
  static constexpr OpSpelling kOps[] = {
      {"===", DepOp::eq}, {"~=", DepOp::ge}, {"==", DepOp::eq}, {"!=", DepOp::ne},
      {"<=", DepOp::le},  {">=", DepOp::ge}, {"<", DepOp::lt},  {">", DepOp::gt},
  };
  std::string_view op_written;
  VersionConstraint c{DepOp::eq, "", false};
  for (const auto& o : kOps) {
    if (piece.substr(0, o.text.size()) == o.text) {
      op_written = o.text;
      c.op = o.op;
      break;
    }
  }
  if (op_written == "===") {
    const std::string what =
        "'===' (arbitrary equality) is not supported in version ranges, in '" + shorten(whole) + "'";
    return worded(ExitCode::bad_input, what + " (use '==')", {}, what, "", "use '=='");
  }
  std::string_view version = trim(piece.substr(op_written.size()));
  std::string after = op_written.empty() ? "" : " after '" + std::string(op_written) + "'";
  if (version.empty()) {
    const std::string msg = "expected a version" + after + " in '" + shorten(whole) + "'";
    return worded(ExitCode::bad_input, msg, {}, msg, "a version" + after);
  }
  if (version.size() >= 2 && version.substr(version.size() - 2) == ".*") {
    std::string_view prefix = version.substr(0, version.size() - 2);
    if ((c.op != DepOp::eq && c.op != DepOp::ne) || op_written.empty()) {
      return error_at(ExitCode::bad_input, "", "'.*' is only allowed after '==' or '!=', in '" + shorten(whole) + "'");
    }
    if (!is_release_prefix(prefix)) {
      const std::string expected = "release numbers before '.*' (like ==1.2.*)";
      const std::string msg = "expected " + expected + ", got '" + shorten(version) + "' in '" + shorten(whole) + "'";
      return worded(ExitCode::bad_input, msg, {}, msg, expected);
    }
    c.version = std::string(prefix);
    c.wildcard = true;
    out.push_back(std::move(c));
    return {};
  }
  if (!is_pep440(version)) {
    std::string msg =
        "expected a PEP 440 version" + after + ", got '" + shorten(version) + "' in '" + shorten(whole) + "'";
    // Operators written the other way round or as Debian writes them: `=>2.9`, `<<3`, `=1.2`.
    std::string hint;
    const std::string_view written = trim(piece);
    for (auto [typo, op] : {std::pair{"=>", ">="}, {"=<", "<="}, {"<<", "<"}, {">>", ">"}, {"=!", "!="}})
      if (written.starts_with(typo))
        hint = "did you mean '" + std::string(op) + shorten(trim(written.substr(2))) + "'?";
    if (hint.empty() && written.starts_with('=') && !written.starts_with("==") && written.size() > 1)
      hint = "did you mean '==" + shorten(trim(written.substr(1))) + "'?";
    const std::string what = msg;
    if (!hint.empty()) msg += " (" + hint + ")";
    return worded(ExitCode::bad_input, msg, {}, what, "a PEP 440 version" + after, hint);
  }
  c.version = std::string(version);
  if (op_written == "~=") {
    // ~=2.2.1 is >=2.2.1 together with ==2.2.*: the last release number may grow.
    auto release = leading_release(version);
    if (!release || release->numbers.size() < 2) {
      const std::string msg = "'~=' needs at least two release numbers (like ~=2.2), got '~=" + shorten(version) +
                              "' in '" + shorten(whole) + "'";
      return worded(ExitCode::bad_input, msg, {}, msg, "at least two release numbers (like ~=2.2)");
    }
    out.push_back(c);
    std::string prefix = release->epoch ? std::to_string(release->epoch) + "!" : "";
    for (std::size_t i = 0; i + 1 < release->numbers.size(); ++i) {
      if (i) prefix += '.';
      prefix += std::to_string(release->numbers[i]);
    }
    out.push_back(VersionConstraint{DepOp::eq, prefix, true});
    return {};
  }
  out.push_back(std::move(c));
  return {};
}

// Same epoch and release numbers, trailing zeros aside (packaging's base_version equality).
bool same_base(const version::Pep440& a, const version::Pep440& b) {
  if (a.epoch != b.epoch) return false;
  std::size_t n = std::max(a.release.size(), b.release.size());
  for (std::size_t i = 0; i < n; ++i) {
    std::string_view x = i < a.release.size() ? std::string_view(a.release[i]) : "0";
    std::string_view y = i < b.release.size() ? std::string_view(b.release[i]) : "0";
    if (x != y) return false;
  }
  return true;
}

// PEP 440: ">V" must not match a post-release or local version of V (unless V is itself a
// post-release), and "<V" must not match a pre-release of V (unless V is itself one).
bool excluded_by_exclusive(DepOp op, std::string_view candidate, std::string_view bound) {
  auto cand = version::parse_pep440(candidate);
  auto spec = version::parse_pep440(bound);
  if (!cand || !spec || !same_base(*cand, *spec)) return false;
  if (op == DepOp::gt) {
    if (cand->post && !spec->post) return true;
    return !cand->local.empty();
  }
  bool cand_pre = cand->pre != version::Pep440::Pre::none || cand->dev.has_value();
  bool spec_pre = spec->pre != version::Pep440::Pre::none || spec->dev.has_value();
  return cand_pre && !spec_pre;
}

bool satisfies(const VersionConstraint& c, std::string_view version) {
  if (c.op == DepOp::any) return true;
  bool negated = c.op == DepOp::ne;
  if (c.wildcard) return prefix_matches(c.version, version) != negated;
  if (c.op == DepOp::eq || c.op == DepOp::ne) {
    // A public version in the specifier ignores the candidate's local label (PEP 440).
    std::string_view candidate = version;
    if (c.version.find('+') == std::string::npos) {
      candidate = candidate.substr(0, candidate.find('+'));
    }
    bool equal = version::compare(version::pep440_scheme, candidate, c.version) == 0;
    return equal != negated;
  }
  int cmp = version::compare(version::pep440_scheme, version, c.version);
  if ((c.op == DepOp::gt && cmp > 0) || (c.op == DepOp::lt && cmp < 0)) {
    if (excluded_by_exclusive(c.op, version, c.version)) return false;
  }
  switch (c.op) {
    case DepOp::lt: return cmp < 0;
    case DepOp::le: return cmp <= 0;
    case DepOp::gt: return cmp > 0;
    case DepOp::ge: return cmp >= 0;
    default: return true;
  }
}

}  // namespace

namespace declare {

Result<VersionRange> parse_range(std::string_view text) {
  VersionRange range;
  std::string_view whole = trim(text);
  if (whole.empty()) return range;
  // The matchers are recursive (std::regex); no real range comes near this.
  if (whole.size() > limits::kMaxVersionLength)
    return error_at(ExitCode::bad_input, "", "version range is " + std::to_string(whole.size()) + " characters long",
                    "at most " + std::to_string(limits::kMaxVersionLength));
  std::size_t start = 0;
  while (true) {
    std::size_t comma = whole.find(',', start);
    std::string_view piece =
        trim(whole.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start));
    if (piece.empty()) {
      const std::string expected =
          "a version constraint " + std::string(comma == std::string_view::npos ? "after" : "before") + " ','";
      const std::string msg = "expected " + expected + " in '" + shorten(whole) + "'";
      return worded(ExitCode::bad_input, msg, {}, msg, expected);
    }
    for (std::size_t i = 0; i < piece.size(); ++i) {
      if (std::isspace(static_cast<unsigned char>(piece[i])) && !trim(piece.substr(0, i)).empty() &&
          trim(piece.substr(0, i)).find_first_not_of("<>=!~") != std::string_view::npos) {
        const std::string msg = "expected ',' between version constraints in '" + shorten(whole) + "'";
        return worded(ExitCode::bad_input, msg, {}, msg, "',' between version constraints");
      }
    }
    if (auto r = parse_one(piece, whole, range.constraints); !r) return r.error();
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  // '~=V' is kept as the two constraints it means, which render longer than written: the limit
  // holds for the rendering too, so every range accepted here reads back from its str().
  if (std::string rendered = range.str(); rendered.size() > 1024) {
    return error_at(ExitCode::bad_input, "",
                    "version range is " + std::to_string(rendered.size()) + " characters long with '~=' expanded",
                    "at most 1024");
  }
  return range;
}

bool range_contains(const VersionRange& range, std::string_view version) {
  for (const auto& c : range.constraints) {
    if (!satisfies(c, version)) return false;
  }
  return true;
}

}  // namespace declare

std::string VersionRange::str() const {
  std::string out;
  for (const auto& c : constraints) {
    if (c.op == DepOp::any) continue;
    if (!out.empty()) out += ',';
    out += op_text(c);
    out += c.version;
    if (c.wildcard) out += ".*";
  }
  return out;
}

}  // namespace extdeps
