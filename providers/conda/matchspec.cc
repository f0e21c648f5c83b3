// conda MatchSpecs: parsing (name, version expression, build string, brackets) and matching.
#include "providers/conda/matchspec.h"

#include "core/mapping/names.h"
#include "core/util/printable.h"
#include "core/util/text.h"

#include <algorithm>
#include <cctype>
#include <optional>
#include <string>
#include <unordered_map>

namespace extdeps::conda {

namespace {

using version::CondaVersion;

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }
bool is_one_of(char c, std::string_view set) { return set.find(c) != std::string_view::npos; }

// Whether `text` ends with `suffix`, letters compared without case.
bool ends_with_nocase(std::string_view text, std::string_view suffix) {
  if (text.size() < suffix.size()) return false;
  return std::equal(suffix.begin(), suffix.end(), text.end() - static_cast<std::ptrdiff_t>(suffix.size()),
                    [](char a, char b) {
                      return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
                    });
}

// A package file name ("numpy-1.26.4-py312h_0.conda"), blanks ignored.
bool reads_as_file_name(std::string_view text) {
  std::string solid;
  for (char c : text)
    if (!is_blank(c)) solid += c;
  return ends_with_nocase(solid, ".conda") || ends_with_nocase(solid, ".tar.bz2");
}

// Where a conditional spec's "if" starts ("numpy >=1.20 if __unix"): a blank-delimited "if"
// after the first word with more text after it; npos when none.
size_t conditional_at(std::string_view text) {
  size_t word = 0;
  for (size_t i = 0; i < text.size();) {
    while (i < text.size() && is_blank(text[i])) ++i;
    size_t start = i;
    while (i < text.size() && !is_blank(text[i])) ++i;
    if (start == i) break;
    size_t next = i;
    while (next < text.size() && is_blank(text[next])) ++next;
    if (word++ > 0 && text.substr(start, i - start) == "if" && next < text.size()) return start;
  }
  return std::string_view::npos;
}

// '*' matches any run of characters, everything else itself.
bool glob_match(std::string_view pattern, std::string_view text) {
  size_t p = 0, t = 0, star = std::string_view::npos, resume = 0;
  while (t < text.size()) {
    if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      resume = t;
    } else if (p < pattern.size() && pattern[p] == text[t]) {
      ++p, ++t;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      t = ++resume;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

// Text together with the 1-based column, in the whole spec, of each of its characters: the
// blanks dropped from a positional version keep the columns of what is left.
struct Located {
  std::string text;
  std::vector<size_t> cols;
  size_t end_col = 1;  // the column just after the text in the spec

  size_t col(size_t i) const { return i < cols.size() ? cols[i] : end_col; }
  Located sub(size_t from, size_t to) const {
    Located out;
    out.text = text.substr(from, to - from);
    out.cols.assign(cols.begin() + static_cast<std::ptrdiff_t>(from), cols.begin() + static_cast<std::ptrdiff_t>(to));
    out.end_col = col(to);
    return out;
  }
};

enum class Blanks : bool { keep, drop };

// spec[from, to) as a Located.
Located locate(std::string_view spec, size_t from, size_t to, Blanks blanks) {
  Located out;
  for (size_t i = from; i < to; ++i) {
    if (blanks == Blanks::drop && is_blank(spec[i])) continue;
    out.text += spec[i];
    out.cols.push_back(i + 1);
  }
  out.end_col = to + 1;
  return out;
}

enum class Form : bool { name_version_build, version_build };
enum class Build : bool { absent, present };

class Parser {
 public:
  explicit Parser(std::string_view spec) : spec_(spec) {}

  Result<MatchSpec> parse(Form form);

 private:
  // "invalid match spec 'SPEC': WHY (expected EXPECTED) at column N"; the spec has no place of
  // its own here (its caller knows the file or the DepURL), so the column stays in the text.
  Error fail(const std::string& why, size_t col, const std::string& expected = {}) const {
    const std::string head = "invalid match spec '" + std::string(spec_) + "': " + why;
    const std::string at = " at column " + std::to_string(col);
    Error e = bad_input(head + (expected.empty() ? "" : " (expected " + expected + ")") + at);
    e.what = head + at;
    e.expected = expected;
    return e;
  }
  Error fail(const std::string& why) const {
    return error_at(ExitCode::bad_input, "", "invalid match spec '" + std::string(spec_) + "': " + why);
  }

  Result<VersionExpr> parse_version(const Located& v);
  Result<VersionExpr> parse_or(const Located& v, size_t& i, size_t empty_col);
  Result<VersionExpr> parse_and(const Located& v, size_t& i, size_t empty_col);
  Result<VersionExpr> parse_primary(const Located& v, size_t& i, size_t empty_col);
  Result<VersionExpr> parse_test(const Located& t);
  Result<CondaVersion> parse_operand(std::string_view text, size_t col);
  Result<void> parse_brackets(size_t open, size_t end, std::optional<Located>& version, std::optional<Located>& build);
  Result<void> check_build(const Located& build);

  std::string_view spec_;
  int depth_ = 0;  // parentheses open around the current place
};

// Deeper nesting than any real spec has is refused rather than recursed into.
constexpr int kMaxDepth = 32;

// MatchSpec's translation of a version that starts with '=': "=1.2" -> "1.2*" (fuzzy) without a
// build string, "1.2" (exact) with one; "==1.2" -> "1.2". Anything with '=', ',' or '|' after the
// leading '='s stays as it is.
void sanitize_version(Located& v, Build build) {
  if (v.text == "==" || v.text == "=" || v.text.empty() || v.text[0] != '=') return;
  size_t k = v.text.find_first_not_of('=');
  Located stripped = v.sub(k == std::string::npos ? v.text.size() : k, v.text.size());
  if (v.text.starts_with("==") && build == Build::absent) {
    v = stripped;
    return;
  }
  if (stripped.text.find_first_of("=,|") != std::string::npos) return;
  if (build == Build::absent && (stripped.text.empty() || stripped.text.back() != '*')) {
    stripped.text += '*';
    stripped.cols.push_back(stripped.end_col > 1 ? stripped.end_col - 1 : 1);
  }
  v = stripped;
}

void skip_blanks(const Located& v, size_t& i) {
  while (i < v.text.size() && is_blank(v.text[i])) ++i;
}

Result<VersionExpr> Parser::parse_version(const Located& v) {
  size_t i = 0;
  auto expr = parse_or(v, i, 0);
  if (!expr) return expr;
  skip_blanks(v, i);
  if (i < v.text.size()) return fail(std::string("unexpected '") + v.text[i] + "'", v.col(i));
  return expr;
}

// Joins children under one operator, fusing children of the same operator ("a|(b|c)" -> a|b|c).
VersionExpr join(VersionExpr::Kind kind, std::vector<VersionExpr> parts) {
  if (parts.size() == 1) return std::move(parts.front());
  VersionExpr out;
  out.kind = kind;
  for (auto& p : parts) {
    if (p.kind == kind) {
      for (auto& c : p.children) out.children.push_back(std::move(c));
    } else {
      out.children.push_back(std::move(p));
    }
  }
  return out;
}

// `empty_col`: the column to blame when the first operand is missing (the operator or '(' that
// wants it), 0 to blame what stands there instead.
Result<VersionExpr> Parser::parse_or(const Located& v, size_t& i, size_t empty_col) {
  std::vector<VersionExpr> parts;
  for (;;) {
    auto e = parse_and(v, i, empty_col);
    if (!e) return e;
    parts.push_back(std::move(*e));
    skip_blanks(v, i);
    if (i >= v.text.size() || v.text[i] != '|') break;
    empty_col = v.col(i++);
  }
  return join(VersionExpr::Kind::any_of, std::move(parts));
}

Result<VersionExpr> Parser::parse_and(const Located& v, size_t& i, size_t empty_col) {
  std::vector<VersionExpr> parts;
  for (;;) {
    auto e = parse_primary(v, i, empty_col);
    if (!e) return e;
    parts.push_back(std::move(*e));
    skip_blanks(v, i);
    if (i < v.text.size() && v.text[i] == '(') return fail("unexpected '('", v.col(i), "',' or '|' before it");
    if (i >= v.text.size() || v.text[i] != ',') break;
    empty_col = v.col(i++);
  }
  return join(VersionExpr::Kind::all_of, std::move(parts));
}

Result<VersionExpr> Parser::parse_primary(const Located& v, size_t& i, size_t empty_col) {
  skip_blanks(v, i);
  if (i >= v.text.size() || is_one_of(v.text[i], ",|)")) return fail("empty version", empty_col ? empty_col : v.col(i));
  if (v.text[i] == '(') {
    size_t open = v.col(i++);
    if (++depth_ > kMaxDepth) return fail("parentheses nested too deep", open);
    auto inner = parse_or(v, i, open);
    --depth_;
    if (!inner) return inner;
    skip_blanks(v, i);
    if (i >= v.text.size() || v.text[i] != ')') return fail("unclosed '('", open);
    ++i;
    return inner;
  }
  size_t start = i;
  while (i < v.text.size() && !is_one_of(v.text[i], "()|,")) ++i;
  size_t end = i;
  while (end > start && is_blank(v.text[end - 1])) --end;
  return parse_test(v.sub(start, end));
}

Result<CondaVersion> Parser::parse_operand(std::string_view text, size_t col) {
  auto v = version::parse_conda(text);
  if (v) return v;
  // The version's error, whole, at its column: "invalid match spec 'numpy >=1.2..': invalid
  // conda version '1.2..': it has an empty component at column 9". Its parts go on.
  const Error& inner = v.error();
  Error e = fail(inner.message, col);
  if (!inner.expected.empty()) e.expected = inner.expected;
  e.hint = inner.hint;
  return e;
}

// One test: "*", an operator and a version, a glob, "1.2.*", or a plain version.
Result<VersionExpr> Parser::parse_test(const Located& t) {
  const std::string& s = t.text;
  size_t col = t.col(0);
  VersionExpr e;
  e.text = s;
  for (size_t k = 0; k < s.size(); ++k)
    if (is_blank(s[k])) return fail("unexpected blank in version '" + s + "'", t.col(k));
  if (s.front() == '^' || s.back() == '$')
    return fail("regular-expression versions ('" + s + "') are not supported", col);

  if (is_one_of(s.front(), "=<>!~")) {
    static constexpr std::string_view kTwo[] = {"==", "!=", "<=", ">=", "~="};
    std::string_view op;
    for (auto two : kTwo)
      if (std::string_view(s).starts_with(two)) op = two;
    if (op.empty() && is_one_of(s.front(), "=<>")) op = std::string_view(s).substr(0, 1);
    std::string operand = s.substr(op.size());
    if (op.empty() || (!operand.empty() && is_one_of(operand.front(), "=<>!~")))
      return fail("invalid operator in '" + s + "'", col);
    if (operand.empty()) return fail("expected a version after '" + std::string(op) + "'", col);
    using K = VersionExpr::Kind;
    e.kind = op == "=="   ? K::equal
             : op == "!=" ? K::not_equal
             : op == "<"  ? K::less
             : op == "<=" ? K::less_equal
             : op == ">"  ? K::greater
             : op == ">=" ? K::greater_equal
             : op == "~=" ? K::compatible
                          : K::starts_with;
    if (operand.ends_with(".*")) {
      // conda: "=1.2.*" and ">=1.2.*" mean "=1.2" and ">=1.2", "!=1.2.*" means "does not start
      // with 1.2"; with the other operators the ".*" is dropped (conda warns that it is ignored).
      if (e.kind == K::compatible) return fail("'~=' cannot be used with '.*'", col);
      if (e.kind == K::not_equal) e.kind = K::not_starts_with;
      operand.resize(operand.size() - 2);
    }
    size_t operand_col = t.col(op.size());
    auto v = parse_operand(operand, operand_col);
    if (!v) return v.error();
    e.operand = std::move(*v);
    if (e.kind == K::compatible) {
      // conda: at least the version without its last '.'-separated part ("~=1.4.5": 1.4.*)
      auto dot = e.operand.text.rfind('.');
      if (dot == std::string::npos)
        return fail("'~=' needs a version with at least two components, not '" + operand + "'", operand_col);
      auto prefix = parse_operand(e.operand.text.substr(0, dot), operand_col);
      if (!prefix) return prefix.error();
      e.prefix = std::move(*prefix);
    }
    return e;
  }
  if (s == "*") {
    e.kind = VersionExpr::Kind::any;
    return e;
  }
  size_t last = s.find_last_not_of('*');
  if (last != std::string::npos && s.find('*') < last) {
    // A glob can only meet a version's own characters.
    for (size_t k = 0; k < s.size(); ++k)
      if (!std::isalnum(static_cast<unsigned char>(s[k])) && !is_one_of(s[k], ".+!_*-"))
        return fail(std::string("invalid character '") + s[k] + "' in version '" + s + "'", t.col(k));
    e.kind = VersionExpr::Kind::glob;
    return e;
  }
  if (s.back() == '*') {
    // "1.2*" and "1.2.*": the versions that start with 1.2. conda reads "X*" as "X.*"; that is
    // also how it is shown, unless more stars end it ("1.2**" would read back as a glob).
    std::string operand = s.ends_with(".*") ? s : s.substr(0, s.size() - 1) + ".*";
    if (s.size() - last == 2) e.text = operand;
    while (!operand.empty() && operand.back() == '*') operand.pop_back();
    while (!operand.empty() && operand.back() == '.') operand.pop_back();
    e.kind = VersionExpr::Kind::starts_with;
    auto v = parse_operand(operand, col);
    if (!v) return v.error();
    e.operand = std::move(*v);
    return e;
  }
  e.kind = VersionExpr::Kind::equal;
  auto v = parse_operand(s, col);
  if (!v) return v.error();
  e.operand = std::move(*v);
  return e;
}

Result<void> Parser::check_build(const Located& build) {
  const std::string& b = build.text;
  for (size_t k = 0; k < b.size(); ++k)
    if (is_blank(b[k])) return fail("more than one build string ('" + b + "')", build.col(0));
  if (!b.empty() && b.front() == '^' && b.back() == '$')
    return fail("regular-expression build strings ('" + b + "') are not supported", build.col(0));
  // Build strings are letters, digits, '_', '.' and '+' (and '*' to glob).
  for (size_t k = 0; k < b.size(); ++k)
    if (!std::isalnum(static_cast<unsigned char>(b[k])) && !is_one_of(b[k], "_.+*"))
      return fail(std::string("invalid character '") + b[k] + "' in build string '" + b + "'", build.col(k));
  return {};
}

// "[key=value, key='value' ...]" from spec_[open] (the '[') to the ']' that ends the spec.
Result<void> Parser::parse_brackets(size_t open, size_t end, std::optional<Located>& version,
                                    std::optional<Located>& build) {
  size_t i = open + 1;
  for (;;) {
    while (i < end && (is_blank(spec_[i]) || spec_[i] == ',')) ++i;
    if (i >= end) return fail("unclosed '['", open + 1);
    if (spec_[i] == ']') break;
    size_t key_start = i;
    while (i < end && (std::isalnum(static_cast<unsigned char>(spec_[i])) || spec_[i] == '_' || spec_[i] == '-')) ++i;
    std::string key(spec_.substr(key_start, i - key_start));
    if (key.empty()) return fail(std::string("expected a key in brackets, got '") + spec_[i] + "'", i + 1);
    if (i >= end || spec_[i] != '=') return fail("expected '=' after '" + key + "'", i + 1);
    ++i;
    size_t value_start = i, value_end;
    if (i < end && (spec_[i] == '\'' || spec_[i] == '"')) {
      char quote = spec_[i];
      size_t quote_col = i + 1;
      value_start = ++i;
      while (i < end && spec_[i] != quote) ++i;
      if (i >= end) return fail(std::string("unclosed ") + quote, quote_col);
      value_end = i++;
    } else {
      while (i < end && !is_blank(spec_[i]) && spec_[i] != ',' && spec_[i] != ']') ++i;
      value_end = i;
    }
    if (value_end == value_start) return fail("empty value for '" + key + "'", value_start + 1);
    Located value = locate(spec_, value_start, value_end, Blanks::keep);
    if (key == "version") {
      version = std::move(value);
    } else if (key == "build") {
      build = std::move(value);
    } else {
      return fail("unsupported key '" + key + "' in brackets (only version and build are)", key_start + 1);
    }
  }
  for (size_t k = i + 1; k < end; ++k)
    if (!is_blank(spec_[k])) return fail("unexpected text after ']'", k + 1);
  return {};
}

Result<MatchSpec> Parser::parse(Form form) {
  size_t end = std::min(spec_.find('#'), spec_.size());
  size_t begin = 0;
  while (begin < end && is_blank(spec_[begin])) ++begin;
  while (end > begin && is_blank(spec_[end - 1])) --end;
  MatchSpec out;
  if (begin == end) {
    if (form == Form::name_version_build) return fail("it is empty");
    return out;
  }
  std::string_view body = spec_.substr(begin, end - begin);
  if (body.back() == '@') return fail("feature specs ('name@') are not supported", end);
  if (auto k = conditional_at(body); k != std::string_view::npos)
    return fail("conditional specs ('if') are not supported", begin + k + 1);

  // The bracket section, if any, ends the spec.
  std::optional<Located> bracket_version, bracket_build;
  size_t stop = end;
  if (auto open = body.find('['); open != std::string_view::npos) {
    auto r = parse_brackets(begin + open, end, bracket_version, bracket_build);
    if (!r) return r.error();
    stop = begin + open;
  }
  if (reads_as_file_name(spec_.substr(begin, stop - begin)))
    return fail("a package file name is not a match spec here", begin + 1);

  size_t i = begin;
  if (form == Form::name_version_build) {
    while (i < stop && !is_blank(spec_[i]) && !is_one_of(spec_[i], "=<>!~")) ++i;
    std::string_view name = spec_.substr(begin, i - begin);
    if (name.empty()) return fail("expected a package name", begin + 1);
    if (auto colon = name.find(':'); colon != std::string_view::npos)
      return fail("channel and namespace prefixes ('conda-forge::') are not supported", begin + colon + 1);
    if (auto star = name.find('*'); star != std::string_view::npos)
      return fail("package name globs are not supported", begin + star + 1);
    out.name = to_lower(name);
    // conda's names: letters (read as lower case), digits, '-', '_' and '.', not starting with
    // '-' or '.'.
    if (!is_conda_name(out.name))
      return fail("invalid package name '" + printable_text(name) + "'", begin + 1, "letters, digits, - _ .");
  }
  while (i < stop && is_blank(spec_[i])) ++i;
  size_t rest_end = stop;
  while (rest_end > i && is_blank(spec_[rest_end - 1])) --rest_end;

  if (i < rest_end) {
    // conda splits "version build" at the first place, from the left, where a ' ' or '=' that
    // no operator character precedes is followed up to the end by a valid build string.
    size_t version_end = rest_end, build_start = rest_end;
    size_t last_bad = spec_.substr(0, rest_end).find_last_of("-=,|<>~");  // none in a build
    for (size_t k = i + 1; k + 1 < rest_end; ++k) {
      // (conda's split knows no parentheses: after '(' a '=' is an operator here, too)
      if (!is_one_of(spec_[k], " =") || is_one_of(spec_[k - 1], "=!|,<>~(")) continue;
      if (last_bad != std::string_view::npos && last_bad > k) continue;
      version_end = k;
      build_start = k + 1;
      while (build_start < rest_end && is_blank(spec_[build_start])) ++build_start;
      break;
    }
    Located version = locate(spec_, i, version_end, Blanks::drop);
    Build has_build = build_start < rest_end ? Build::present : Build::absent;
    if (has_build == Build::present) {
      Located build = locate(spec_, build_start, rest_end, Blanks::keep);
      auto ok = check_build(build);
      if (!ok) return ok.error();
      out.build = build.text;
    }
    sanitize_version(version, has_build);
    auto expr = parse_version(version);
    if (!expr) return expr.error();
    out.version = std::move(*expr);
  }

  if (bracket_version) {
    sanitize_version(*bracket_version, Build::absent);
    auto expr = parse_version(*bracket_version);
    if (!expr) return expr.error();
    out.version = std::move(*expr);
  }
  if (bracket_build) {
    auto ok = check_build(*bracket_build);
    if (!ok) return ok.error();
    out.build = bracket_build->text;
  }
  return out;
}

}  // namespace

bool VersionExpr::matches(std::string_view version, const CondaVersion* parsed) const {
  using version::conda_compare;
  using version::conda_starts_with;
  switch (kind) {
    case Kind::any: return true;
    case Kind::glob: return glob_match(text, version);
    case Kind::all_of:
      return std::all_of(children.begin(), children.end(),
                         [&](const VersionExpr& c) { return c.matches(version, parsed); });
    case Kind::any_of:
      return std::any_of(children.begin(), children.end(),
                         [&](const VersionExpr& c) { return c.matches(version, parsed); });
    default: break;
  }
  if (!parsed) return false;
  switch (kind) {
    case Kind::equal: return conda_compare(*parsed, operand) == 0;
    case Kind::not_equal: return conda_compare(*parsed, operand) != 0;
    case Kind::less: return conda_compare(*parsed, operand) < 0;
    case Kind::less_equal: return conda_compare(*parsed, operand) <= 0;
    case Kind::greater: return conda_compare(*parsed, operand) > 0;
    case Kind::greater_equal: return conda_compare(*parsed, operand) >= 0;
    case Kind::starts_with: return conda_starts_with(*parsed, operand);
    case Kind::not_starts_with: return !conda_starts_with(*parsed, operand);
    case Kind::compatible: return conda_compare(*parsed, operand) >= 0 && conda_starts_with(*parsed, prefix);
    default: return false;
  }
}

std::string VersionExpr::to_string() const {
  if (kind != Kind::all_of && kind != Kind::any_of) return kind == Kind::any ? "*" : text;
  std::string out;
  for (const auto& c : children) {
    if (!out.empty()) out += kind == Kind::all_of ? ',' : '|';
    bool group = kind == Kind::all_of && c.kind == Kind::any_of;
    if (group) out += '(';
    out += c.to_string();
    if (group) out += ')';
  }
  return out;
}

bool MatchSpec::matches(std::string_view v, std::string_view b) const {
  if (build && !glob_match(*build, b)) return false;
  if (!version) return true;
  // A solve asks every spec about every candidate of its name: the same few thousand version
  // strings, parsed once each (parsing them again was a fifth of a warm conda run).
  thread_local std::unordered_map<std::string, std::optional<version::CondaVersion>> parsed_versions;
  auto it = parsed_versions.find(std::string(v));
  if (it == parsed_versions.end()) {
    if (parsed_versions.size() > 200000) parsed_versions.clear();
    auto parsed = version::parse_conda(v);
    it = parsed_versions
             .emplace(std::string(v), parsed ? std::optional<version::CondaVersion>(std::move(*parsed)) : std::nullopt)
             .first;
  }
  return version->matches(v, it->second ? &*it->second : nullptr);
}

std::string MatchSpec::text() const {
  std::string out = name;
  auto add = [&out](const std::string& part) {
    if (!out.empty()) out += ' ';
    out += part;
  };
  std::string v = version ? version->to_string() : "*";
  if (version) {
    // In parentheses where the positional form would read it otherwise: a leading '=' is
    // rewritten there ("=1.2" is fuzzy, "==1,2" loses its "=="), and a version ending in an
    // operator character keeps the build string attached.
    if (v.front() == '=' || (build && is_one_of(v.back(), "=!|,<>~"))) v = "(" + v + ")";
    add(v);
  } else if (build) {
    add(v);
  }
  if (build) add(*build);
  // Where the positional form would read as a package file name or a conditional spec (a build
  // string ".conda", a version "if"), the bracket form says the same.
  if (reads_as_file_name(out) || conditional_at(out) != std::string_view::npos) {
    out = name + "[version='" + v + "'";
    if (build) out += ", build='" + *build + "'";
    out += "]";
  }
  return out;
}

Result<MatchSpec> parse_matchspec(std::string_view text) { return Parser(text).parse(Form::name_version_build); }

Result<MatchSpec> parse_version_build(std::string_view text) { return Parser(text).parse(Form::version_build); }

std::pair<std::string, std::string> split_name(std::string_view text) {
  size_t begin = 0, end = text.size();
  while (begin < end && is_blank(text[begin])) ++begin;
  while (end > begin && is_blank(text[end - 1])) --end;
  size_t i = begin;
  bool upper = false;
  for (; i < end; ++i) {
    const char c = text[i];
    if (is_blank(c) || c == '=' || c == '<' || c == '>' || c == '!' || c == '~' || c == '[') break;
    upper |= c >= 'A' && c <= 'Z';
  }
  std::string name = upper ? to_lower(text.substr(begin, i - begin)) : std::string(text.substr(begin, i - begin));
  while (i < end && is_blank(text[i])) ++i;
  return {name, std::string(text.substr(i, end - i))};
}

Result<std::unique_ptr<SpecMatcher>> compile_conda_spec(std::string_view version_build) {
  auto spec = parse_version_build(version_build);
  if (!spec) return spec.error();
  return std::unique_ptr<SpecMatcher>(std::make_unique<CondaSpecMatcher>(std::move(*spec)));
}

bool is_conda_name(std::string_view s) {
  if (s.empty() || s[0] == '-' || s[0] == '.') return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.';
  });
}

}  // namespace extdeps::conda
