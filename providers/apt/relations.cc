// The relationship grammar of deb-control(5): groups separated by ',', alternatives by '|', each
// "name[:arch] [(op version)] [[arch ...]] [<profile ...> ...]". Views only; nothing is copied
// unless a message is built.
#include "providers/apt/relations.h"

#include <cctype>

namespace extdeps::apt {

namespace {

constexpr std::string_view kOps = "one of << <= = >= >>";

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

bool ends_name(char c) {
  switch (c) {
    case ' ':
    case '\t':
    case '\n':
    case '\r':
    case '(':
    case ')':
    case ',':
    case '|':
    case '[':
    case ']':
    case '<':
    case '>':
    case ':': return true;
    default: return false;
  }
}

bool arch_matches(std::string_view token, std::string_view arch) {
  if (token == arch || token == "any" || token == "linux-any") return true;
  return token.size() > 4 && token.substr(0, 4) == "any-" && token.substr(4) == arch;
}

class Parser {
 public:
  Parser(std::string_view s, RelationField field, std::string_view arch, Relations& out, RelationError& error)
      : s_(s), field_(field), arch_(arch), out_(out), error_(error) {}

  bool run() {
    const bool alternatives = field_ == RelationField::depends || field_ == RelationField::pre_depends;
    while (true) {
      skip_space();
      if (at_end()) return true;
      if (s_[pos_] == ',') {  // an empty group, as in a trailing comma: tolerated like apt does
        ++pos_;
        continue;
      }
      size_t group_start = out_.rels.size();
      while (true) {
        bool keep = true;
        if (!relation(keep)) return false;
        if (!keep) out_.rels.pop_back();
        skip_space();
        if (at_end() || s_[pos_] == ',') break;
        if (s_[pos_] != '|')
          return fail(pos_,
                      "unexpected '" + std::string(1, s_[pos_]) + "' after relation '" + text_from(rel_start_) +
                          "' in " + field_name(),
                      "',' or '|'");
        if (!alternatives)
          return fail(pos_, "alternative '|' in " + field_name(), "alternatives only in Depends and Pre-Depends");
        ++pos_;
      }
      // A group whose every alternative was dropped by an arch restriction or a build profile
      // is dropped as a whole.
      if (out_.rels.size() > group_start) out_.group_end.push_back(static_cast<std::uint32_t>(out_.rels.size()));
      if (!at_end()) ++pos_;  // the ','
    }
  }

 private:
  bool at_end() const { return pos_ >= s_.size(); }
  void skip_space() {
    while (pos_ < s_.size() && is_space(s_[pos_])) ++pos_;
  }
  std::string field_name() const { return std::string(relation_field_name(field_)); }

  std::string_view word() {
    size_t start = pos_;
    while (pos_ < s_.size() && !ends_name(s_[pos_])) ++pos_;
    return s_.substr(start, pos_ - start);
  }

  // The relation's text for a message: from its start to the next ',' or '|', one line.
  std::string text_from(size_t start) const {
    size_t end = start;
    while (end < s_.size() && s_[end] != ',' && s_[end] != '|') ++end;
    std::string t;
    for (size_t i = start; i < end; ++i) {
      char c = is_space(s_[i]) ? ' ' : s_[i];
      if (c == ' ' && (t.empty() || t.back() == ' ')) continue;
      t += c;
    }
    while (!t.empty() && t.back() == ' ') t.pop_back();
    if (t.size() > 80) t = t.substr(0, 77) + "...";
    return t;
  }

  bool fail(size_t at, std::string what, std::string_view expected) {
    error_.offset = at;
    error_.what = std::move(what);
    error_.expected = std::string(expected);
    error_.message = error_.what + " (expected " + error_.expected + ")";
    return false;
  }

  bool relation(bool& keep) {
    skip_space();
    rel_start_ = pos_;
    Relation r;
    r.name = word();
    if (r.name.empty()) {
      std::string text = text_from(rel_start_);
      if (text.empty()) return fail(pos_, "empty alternative in " + field_name(), "a package name around '|'");
      return fail(pos_, "missing package name in relation '" + text + "' in " + field_name(), "a package name first");
    }
    if (!at_end() && s_[pos_] == ':') {
      ++pos_;
      r.arch_qualifier = word();
      if (r.arch_qualifier.empty())
        return fail(pos_,
                    "missing architecture after ':' in relation '" + text_from(rel_start_) + "' in " + field_name(),
                    "any, native or an architecture name");
    }
    skip_space();
    if (!at_end() && s_[pos_] == '(' && !version(r)) return false;
    out_.rels.push_back(r);
    skip_space();
    if (!at_end() && s_[pos_] == '[' && !restrictions(keep)) return false;
    skip_space();
    bool any_profile_group = false, profile_ok = false;
    while (!at_end() && s_[pos_] == '<') {
      any_profile_group = true;
      bool group_ok = true;
      if (!profiles(group_ok)) return false;
      profile_ok = profile_ok || group_ok;
      skip_space();
    }
    if (any_profile_group && !profile_ok) keep = false;
    return true;
  }

  bool version(Relation& r) {
    size_t open = pos_++;
    skip_space();
    size_t op_at = pos_;
    std::string_view rest = s_.substr(pos_);
    auto starts = [&](std::string_view p) { return rest.substr(0, p.size()) == p; };
    if (starts("<<")) r.op = DepOp::lt, pos_ += 2;
    else if (starts("<=")) r.op = DepOp::le, pos_ += 2;
    else if (starts(">=")) r.op = DepOp::ge, pos_ += 2;
    else if (starts(">>")) r.op = DepOp::gt, pos_ += 2;
    else if (starts("=")) r.op = DepOp::eq, pos_ += 1;
    else if (starts("<")) r.op = DepOp::le, pos_ += 1;  // obsolete spelling of <=, as dpkg reads it
    else if (starts(">")) r.op = DepOp::ge, pos_ += 1;  // obsolete spelling of >=
    else if (at_end() || s_[pos_] == ')' || std::isalnum(static_cast<unsigned char>(s_[pos_])))
      return fail(pos_, "missing operator in relation '" + text_from(rel_start_) + "' in " + field_name(), kOps);
    else
      return fail(pos_,
                  "bad operator '" + std::string(1, s_[pos_]) + "' in relation '" + text_from(rel_start_) + "' in " +
                      field_name(),
                  kOps);
    std::string_view op_text = s_.substr(op_at, pos_ - op_at);
    if (field_ == RelationField::provides && r.op != DepOp::eq)
      return fail(op_at, "operator '" + std::string(op_text) + "' in Provides relation '" + text_from(rel_start_) + "'",
                  "'=', the only operator Provides allows");
    skip_space();
    size_t v_start = pos_;
    while (pos_ < s_.size() && !is_space(s_[pos_]) && s_[pos_] != ')' && s_[pos_] != '(' && s_[pos_] != ',' &&
           s_[pos_] != '|')
      ++pos_;
    r.version = s_.substr(v_start, pos_ - v_start);
    if (r.version.empty())
      return fail(pos_, "missing version in relation '" + text_from(rel_start_) + "' in " + field_name(),
                  "a version after '" + std::string(op_text) + "'");
    skip_space();
    if (at_end() || s_[pos_] == ',' || s_[pos_] == '|')
      return fail(open, "unclosed '(' in relation '" + text_from(rel_start_) + "' in " + field_name(), "')'");
    if (s_[pos_] != ')')
      return fail(pos_,
                  "unexpected '" + std::string(1, s_[pos_]) + "' in relation '" + text_from(rel_start_) + "' in " +
                      field_name(),
                  "')' after the version");
    ++pos_;
    return true;
  }

  // "[amd64 arm64]" keeps the relation on those; "[!i386]" on all others.
  bool restrictions(bool& keep) {
    size_t open = pos_++;
    bool any_positive = false, matched_positive = false, matched_negative = false;
    while (true) {
      skip_space();
      if (at_end() || s_[pos_] == ',' || s_[pos_] == '|')
        return fail(open, "unclosed '[' in relation '" + text_from(rel_start_) + "' in " + field_name(), "']'");
      if (s_[pos_] == ']') break;
      bool negated = s_[pos_] == '!';
      if (negated) ++pos_;
      size_t start = pos_;
      while (pos_ < s_.size() && !is_space(s_[pos_]) && s_[pos_] != ']' && s_[pos_] != ',' && s_[pos_] != '|') ++pos_;
      std::string_view token = s_.substr(start, pos_ - start);
      if (token.empty())
        return fail(pos_, "empty architecture in relation '" + text_from(rel_start_) + "' in " + field_name(),
                    "an architecture name");
      bool m = arch_matches(token, arch_);
      if (negated) matched_negative = matched_negative || m;
      else any_positive = true, matched_positive = matched_positive || m;
    }
    ++pos_;
    if (any_positive ? !matched_positive : matched_negative) keep = false;
    return true;
  }

  // One "<!nocheck stage1>" group: true when it holds with no build profile active.
  bool profiles(bool& holds) {
    size_t open = pos_++;
    while (true) {
      skip_space();
      if (at_end() || s_[pos_] == ',' || s_[pos_] == '|')
        return fail(open, "unclosed '<' in relation '" + text_from(rel_start_) + "' in " + field_name(), "'>'");
      if (s_[pos_] == '>') break;
      bool negated = s_[pos_] == '!';
      if (negated) ++pos_;
      size_t start = pos_;
      while (pos_ < s_.size() && !is_space(s_[pos_]) && s_[pos_] != '>' && s_[pos_] != ',' && s_[pos_] != '|') ++pos_;
      if (pos_ == start)
        return fail(pos_, "empty build profile in relation '" + text_from(rel_start_) + "' in " + field_name(),
                    "a profile name");
      if (!negated) holds = false;
    }
    ++pos_;
    return true;
  }

  std::string_view s_;
  RelationField field_;
  std::string_view arch_;
  Relations& out_;
  RelationError& error_;
  size_t pos_ = 0;
  size_t rel_start_ = 0;
};

}  // namespace

std::string_view relation_field_name(RelationField field) {
  switch (field) {
    case RelationField::depends: return "Depends";
    case RelationField::pre_depends: return "Pre-Depends";
    case RelationField::provides: return "Provides";
    case RelationField::conflicts: return "Conflicts";
    case RelationField::breaks: return "Breaks";
  }
  return "?";
}

bool parse_relations(std::string_view value, RelationField field, std::string_view record_arch, Relations& out,
                     RelationError& error) {
  out.clear();
  return Parser(value, field, record_arch, out, error).run();
}

}  // namespace extdeps::apt
