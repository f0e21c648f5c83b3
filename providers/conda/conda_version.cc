// conda versions: conda's VersionOrder rules and their rpm-order code (see conda_version.h).
#include "providers/conda/conda_version.h"
#include "core/util/text.h"

#include <algorithm>

#include "core/version/detail.h"
#include "core/version/version.h"

namespace extdeps::version {

using detail::is_ascii_space;
using detail::is_digit;

namespace {

// No place of its own: the caller puts it where the version was read (at_place).
Error invalid(std::string_view text, std::string_view why) {
  return error_at(ExitCode::bad_input, "", "invalid conda version '" + shorten(text) + "': " + std::string(why));
}

bool is_lower(char c) { return c >= 'a' && c <= 'z'; }

bool is_allowed(char c) {
  return is_digit(c) || is_lower(c) || std::string_view("*.+!_").find(c) != std::string_view::npos;
}

bool all_digits(std::string_view s) { return !s.empty() && std::all_of(s.begin(), s.end(), is_digit); }

// "1.2_3" -> {"1", "2", "3"}
std::vector<std::string> split_components(std::string_view s) {
  std::vector<std::string> out(1);
  for (char c : s) {
    if (c == '.' || c == '_') out.emplace_back();
    else out.back() += c;
  }
  return out;
}

CondaComponent parse_component(std::string_view c) {
  CondaComponent parts;
  if (!is_digit(c.front())) parts.push_back(CondaPart{});  // keeps numbers and strings in phase
  size_t i = 0;
  while (i < c.size()) {
    size_t start = i;
    if (is_digit(c[i])) {
      while (i < c.size() && is_digit(c[i])) ++i;
      parts.push_back({CondaPart::Kind::number, std::string(detail::strip_zeros(c.substr(start, i - start)))});
      continue;
    }
    bool star = c[i] == '*';
    while (i < c.size() && !is_digit(c[i]) && (c[i] == '*') == star) ++i;
    std::string_view run = c.substr(start, i - start);
    if (run == "post") parts.push_back({CondaPart::Kind::post, "post"});
    else if (run == "dev") parts.push_back({CondaPart::Kind::string, "DEV"});
    else parts.push_back({CondaPart::Kind::string, std::string(run)});
  }
  return parts;
}

const CondaPart& zero_part() {
  static const CondaPart zero;
  return zero;
}

bool is_zero(const CondaPart& p) { return p.kind == CondaPart::Kind::number && p.text == "0"; }

bool all_zero(const CondaComponent& c) { return std::all_of(c.begin(), c.end(), is_zero); }

int compare_part(const CondaPart& a, const CondaPart& b) {
  if (a.kind != b.kind) return a.kind < b.kind ? -1 : 1;
  switch (a.kind) {
    case CondaPart::Kind::number: return detail::compare_numbers(a.text, b.text);
    case CondaPart::Kind::string: {
      int r = a.text.compare(b.text);
      return r < 0 ? -1 : r > 0 ? 1 : 0;
    }
    case CondaPart::Kind::post: return 0;
  }
  return 0;
}

int compare_component(const CondaComponent& a, const CondaComponent& b) {
  for (size_t i = 0; i < std::max(a.size(), b.size()); ++i) {
    const CondaPart& pa = i < a.size() ? a[i] : zero_part();
    const CondaPart& pb = i < b.size() ? b[i] : zero_part();
    if (int r = compare_part(pa, pb)) return r;
  }
  return 0;
}

int compare_components(const std::vector<CondaComponent>& a, const std::vector<CondaComponent>& b, size_t count) {
  static const CondaComponent empty;
  for (size_t i = 0; i < count; ++i) {
    const CondaComponent& ca = i < a.size() ? a[i] : empty;
    const CondaComponent& cb = i < b.size() ? b[i] : empty;
    if (int r = compare_component(ca, cb)) return r;
  }
  return 0;
}

int compare_components(const std::vector<CondaComponent>& a, const std::vector<CondaComponent>& b) {
  return compare_components(a, b, std::max(a.size(), b.size()));
}

// The letters of a string part, in an order-preserving code made of ASCII letters only.
std::string string_code(const std::string& s) {
  if (s == "DEV") return "C";
  std::string out;
  for (char c : s) out += c == '*' ? 'B' : c == '_' ? 'D' : c;
  return out;
}

// One component that is not all zeros, closed by '^'.
void append_component(std::string& out, const CondaComponent& c) {
  size_t end = c.size();
  while (end > 0 && is_zero(c[end - 1])) --end;
  size_t zeros = 0;
  bool first = true;
  auto token = [&](const std::string& t) {
    if (!first) out += '.';
    out += t;
    first = false;
  };
  for (size_t i = 0; i < end; ++i) {
    const CondaPart& p = c[i];
    if (is_zero(p)) {
      ++zeros;
      continue;
    }
    if (p.kind == CondaPart::Kind::string) {
      token("~" + std::to_string(zeros) + string_code(p.text));
    } else {
      for (; zeros > 0; --zeros) token("n0");
      token(p.kind == CondaPart::Kind::number ? "n" + p.text : "z");
    }
    zeros = 0;
  }
  out += '^';
}

// A component sorts below an all-zero one when its first part that is not zero is a string.
bool below_zero(const CondaComponent& c) {
  for (const auto& p : c)
    if (!is_zero(p)) return p.kind == CondaPart::Kind::string;
  return false;
}

void append_components(std::string& out, const std::vector<CondaComponent>& list, size_t from) {
  size_t end = list.size();
  while (end > from && all_zero(list[end - 1])) --end;
  size_t empties = 0;
  for (size_t i = from; i < end; ++i) {
    if (all_zero(list[i])) {
      ++empties;
      continue;
    }
    if (below_zero(list[i])) out += "~" + std::to_string(empties);
    else out.append(empties, '^');
    append_component(out, list[i]);
    empties = 0;
  }
}

}  // namespace

Result<CondaVersion> parse_conda(std::string_view text) {
  std::string_view t = text;
  while (!t.empty() && is_ascii_space(t.front())) t.remove_prefix(1);
  while (!t.empty() && is_ascii_space(t.back())) t.remove_suffix(1);
  if (t.empty()) return invalid(text, "it is empty");
  std::string s(t);
  for (char& c : s)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  auto bad = std::find_if_not(s.begin(), s.end(), is_allowed);
  if (bad != s.end() && s.find('-') != std::string::npos && s.find('_') == std::string::npos) {
    std::replace(s.begin(), s.end(), '-', '_');
    bad = std::find_if_not(s.begin(), s.end(), is_allowed);
  }
  if (bad != s.end()) return invalid(text, "invalid character " + detail::quote_char(*bad));

  CondaVersion v;
  v.text = s;
  std::string_view rest = v.text;
  std::string_view epoch = "0";
  if (auto bang = rest.find('!'); bang != std::string_view::npos) {
    if (rest.find('!', bang + 1) != std::string_view::npos) return invalid(text, "more than one epoch separator '!'");
    epoch = rest.substr(0, bang);
    if (!all_digits(epoch)) return invalid(text, "the epoch '" + std::string(epoch) + "' is not a number");
    rest.remove_prefix(bang + 1);
  }
  std::string_view local;
  bool has_local = false;
  if (auto plus = rest.find('+'); plus != std::string_view::npos) {
    if (rest.find('+', plus + 1) != std::string_view::npos)
      return invalid(text, "more than one local version separator '+'");
    has_local = true;
    local = rest.substr(plus + 1);
    rest = rest.substr(0, plus);
  }
  if (rest.empty())
    return invalid(text, has_local ? "the version before '+' is empty" : "the version after '!' is empty");

  v.version.push_back({{CondaPart::Kind::number, std::string(detail::strip_zeros(epoch))}});
  // openssl-style "1.0.1_": the trailing '_' stays on the last component.
  bool trailing_underscore = rest.back() == '_';
  if (trailing_underscore) rest.remove_suffix(1);
  auto components = split_components(rest);
  if (trailing_underscore) components.back() += '_';
  for (const auto& c : components) {
    if (c.empty()) return invalid(text, "it has an empty component");
    v.version.push_back(parse_component(c));
  }
  if (has_local) {
    for (const auto& c : split_components(local)) {
      if (c.empty()) return invalid(text, "its local version has an empty component");
      v.local.push_back(parse_component(c));
    }
  }
  return v;
}

int conda_compare(const CondaVersion& a, const CondaVersion& b) {
  if (int r = compare_components(a.version, b.version)) return r;
  return compare_components(a.local, b.local);
}

int conda_compare(std::string_view a, std::string_view b) {
  auto pa = parse_conda(a), pb = parse_conda(b);
  if (pa && pb) return conda_compare(*pa, *pb);
  // Two orders may not mix: normalize_upstream does not order conda versions as conda does, so
  // comparing a conda version with an unparsable string that way was not transitive. What
  // conda cannot parse sorts before every conda version.
  if (pa.ok() != pb.ok()) return pa.ok() ? 1 : -1;
  return evr_compare(normalize_upstream(a), normalize_upstream(b));
}

bool conda_starts_with(const CondaVersion& v, const CondaVersion& prefix) {
  const std::vector<CondaComponent>* mine = &v.version;
  const std::vector<CondaComponent>* theirs = &prefix.version;
  if (!prefix.local.empty()) {
    if (compare_components(v.version, prefix.version) != 0) return false;
    mine = &v.local;
    theirs = &prefix.local;
  }
  // Every component before the prefix's last one is equal.
  size_t last = theirs->size() - 1;
  if (compare_components(*mine, *theirs, last) != 0) return false;
  static const CondaComponent empty;
  const CondaComponent& c = last < mine->size() ? (*mine)[last] : empty;
  const CondaComponent& pc = (*theirs)[last];
  // Every part of that component before its last one is equal.
  size_t last_part = pc.size() - 1;
  for (size_t i = 0; i < last_part; ++i)
    if (compare_part(i < c.size() ? c[i] : zero_part(), pc[i]) != 0) return false;
  const CondaPart& p = last_part < c.size() ? c[last_part] : zero_part();
  const CondaPart& pp = pc[last_part];
  if (pp.kind == CondaPart::Kind::string) return p.kind == CondaPart::Kind::string && p.text.starts_with(pp.text);
  return compare_part(p, pp) == 0;
}

std::string conda_pool_order(const CondaVersion& v) {
  std::string out = v.version.front().front().text + ":";
  append_components(out, v.version, 1);
  out += '-';
  append_components(out, v.local, 0);
  return out;
}

Result<std::string> conda_normalize(std::string_view text) {
  auto v = parse_conda(text);
  if (!v) return v.error();
  return conda_pool_order(*v);
}

namespace {
int conda_compare_text(std::string_view a, std::string_view b) { return conda_compare(a, b); }
}  // namespace

const Scheme conda_scheme{"conda", conda_compare_text, conda_normalize};

}  // namespace extdeps::version
