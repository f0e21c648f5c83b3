// A recursive-descent parser of rpm's boolean dependency syntax (rpm's docs, "Boolean
// Dependencies"): an expression is parenthesised; inside, operands joined by one operator, and,
// or and with chained, if and unless with an optional else, without between two; an operand is
// a parenthesised expression or "NAME [OP EVR]".
#include "core/solve/rich_dep.h"

#include "core/util/limits.h"

namespace extdeps::solve {

namespace {

class Parser {
 public:
  explicit Parser(std::string_view text) : s_(text) {}

  Result<RichDep> whole() {
    skip();
    if (i_ >= s_.size() || s_[i_] != '(') return fail("'('");
    auto e = paren(0);
    if (!e) return e;
    skip();
    if (i_ != s_.size()) return fail("the end after the closing ')'");
    return e;
  }

 private:
  Error fail(std::string_view expected) const {
    std::string got = i_ >= s_.size() ? "the end" : "'" + std::string(s_.substr(i_, 20)) + "'";
    return error_at(
        ExitCode::bad_input, "",
        "rich dependency '" + std::string(s_.substr(0, 200)) + "': " + got + " at byte " + std::to_string(i_),
        std::string(expected));
  }

  void skip() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t')) ++i_;
  }

  // A word: up to a blank or a parenthesis, except that a name may hold balanced parentheses
  // ("libc.so.6()(64bit)", "pkgconfig(zlib)") when they follow a character of it.
  std::string_view word() {
    skip();
    const std::size_t start = i_;
    int depth = 0;
    while (i_ < s_.size()) {
      const char c = s_[i_];
      if (c == ' ' || c == '\t') {
        if (depth == 0) break;
      } else if (c == '(') {
        if (i_ == start) break;
        ++depth;
      } else if (c == ')') {
        if (depth == 0) break;
        --depth;
      }
      ++i_;
    }
    return s_.substr(start, i_ - start);
  }

  static bool is_op(std::string_view w) {
    return w == "and" || w == "or" || w == "if" || w == "unless" || w == "else" || w == "with" || w == "without";
  }

  Result<RichDep> operand(int depth) {
    skip();
    if (i_ < s_.size() && s_[i_] == '(') return paren(depth + 1);
    const std::size_t at = i_;
    std::string_view name = word();
    if (name.empty() || is_op(name)) {
      i_ = at;
      return fail("a package name or '('");
    }
    RichDep d;
    d.atom.name = std::string(name);
    const std::size_t before = i_;
    std::string_view rel = word();
    DepOp op = rel == "<"                  ? DepOp::lt
               : rel == "<="               ? DepOp::le
               : rel == "=" || rel == "==" ? DepOp::eq
               : rel == ">="               ? DepOp::ge
               : rel == ">"                ? DepOp::gt
                                           : DepOp::any;
    if (op == DepOp::any) {
      i_ = before;  // not an operator: the next word is the expression's
      return d;
    }
    std::string_view evr = word();
    if (evr.empty() || is_op(evr)) return fail("a version after '" + std::string(rel) + "'");
    d.atom.op = op;
    d.atom.version = std::string(evr);
    return d;
  }

  Result<RichDep> paren(int depth) {
    if (depth > static_cast<int>(limits::kMaxGroupDepth)) return fail("fewer nested parentheses");
    ++i_;  // '('
    auto first = operand(depth);
    if (!first) return first;
    skip();
    if (i_ < s_.size() && s_[i_] == ')') {  // "(a)": one operand
      ++i_;
      return first;
    }
    const std::size_t at = i_;
    std::string_view w = word();
    using Op = RichDep::Op;
    Op op = w == "and"       ? Op::and_
            : w == "or"      ? Op::or_
            : w == "with"    ? Op::with
            : w == "without" ? Op::without
            : w == "if"      ? Op::if_
            : w == "unless"  ? Op::unless
                             : Op::atom;
    if (op == Op::atom) {
      i_ = at;
      return fail("and, or, if, unless, with, without or ')'");
    }
    RichDep e;
    e.op = op;
    e.args.push_back(std::move(*first));
    for (;;) {
      auto next = operand(depth);
      if (!next) return next;
      e.args.push_back(std::move(*next));
      skip();
      if (i_ < s_.size() && s_[i_] == ')') {
        ++i_;
        return e;
      }
      const std::size_t at2 = i_;
      std::string_view w2 = word();
      const bool chain = (op == Op::and_ || op == Op::or_ || op == Op::with) && w2 == w;
      const bool otherwise = (op == Op::if_ || op == Op::unless) && w2 == "else" && e.args.size() == 2;
      if (!chain && !otherwise) {
        i_ = at2;
        return fail(op == Op::if_ || op == Op::unless ? "else or ')'" : "'" + std::string(w) + "' or ')'");
      }
    }
  }

  std::string_view s_;
  std::size_t i_ = 0;
};

}  // namespace

Result<RichDep> parse_rich_dep(std::string_view text) {
  if (text.size() > limits::kMaxSpecifierLength)
    return error_at(ExitCode::bad_input, "", "a rich dependency of " + std::to_string(text.size()) + " bytes",
                    "at most " + std::to_string(limits::kMaxSpecifierLength));
  return Parser(text).whole();
}

void rich_names(const RichDep& dep, std::vector<std::string>& out) {
  if (dep.op == RichDep::Op::atom) {
    out.push_back(dep.atom.name);
    return;
  }
  for (const auto& a : dep.args) rich_names(a, out);
}

}  // namespace extdeps::solve
