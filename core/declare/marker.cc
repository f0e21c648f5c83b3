// PEP 508 environment markers: parsing and evaluation.
//
//   marker  = and ('or' and)*
//   and     = expr ('and' expr)*
//   expr    = value op value | '(' marker ')'
//   value   = VARIABLE | 'string' | "string"
//   op      = '<' | '<=' | '==' | '!=' | '>=' | '>' | '~=' | '===' | 'in' | 'not in'
//
// Comparisons involving python_version, python_full_version or implementation_version use PEP 440
// order (through parse_range / range_contains); others compare strings, as packaging does when a
// value is not a version. "extra" compares normalised names (PEP 685).
#include <array>
#include <cctype>
#include <memory>
#include <string>
#include <vector>

#include "core/declare/declare.h"
#include "core/util/limits.h"
#include "core/util/text.h"

namespace extdeps::declare {

namespace {

constexpr std::array<std::string_view, 12> kVariables = {
    "os_name",
    "sys_platform",
    "platform_machine",
    "platform_python_implementation",
    "platform_release",
    "platform_system",
    "platform_version",
    "python_version",
    "python_full_version",
    "implementation_name",
    "implementation_version",
    "extra",
};

bool is_version_variable(std::string_view name) {
  return name == "python_version" || name == "python_full_version" || name == "implementation_version";
}

enum class Tok { end, lparen, rparen, string, ident, op };

struct Token {
  Tok kind = Tok::end;
  std::string text;
  std::size_t pos = 0;  // 1-based position in the marker, for messages
};

struct Value {
  bool variable = false;
  std::string text;  // the variable's name or the string's contents
};

struct Node {
  enum Kind { all_of, any_of, compare } kind = compare;
  std::vector<std::unique_ptr<Node>> children;  // all_of / any_of
  Value lhs, rhs;                               // compare
  std::string op;                               // "==", "in", "not in", ...
};

// "invalid marker 'M': WHAT at position N". No place of its own: the caller puts it at the
// specifier's place (at_place). `what` is the sentence with its position; `expected` is what a
// sentence "expected X, got Y" expected, apart.
Error marker_error(std::string_view marker, std::size_t pos, const std::string& what, std::string expected = {}) {
  std::string where = pos > marker.size() ? " at the end" : " at position " + std::to_string(pos);
  Error e = bad_input("invalid marker '" + shorten(marker) + "': " + what + where);
  e.what = e.message;
  e.expected = std::move(expected);
  return e;
}

Result<std::vector<Token>> tokenize(std::string_view m) {
  std::vector<Token> out;
  std::size_t i = 0;
  while (i < m.size()) {
    char c = m[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
      continue;
    }
    Token t;
    t.pos = i + 1;
    if (c == '(' || c == ')') {
      t.kind = c == '(' ? Tok::lparen : Tok::rparen;
      t.text = std::string(1, c);
      ++i;
    } else if (c == '\'' || c == '"') {
      std::size_t close = m.find(c, i + 1);
      if (close == std::string_view::npos) {
        return marker_error(m, i + 1, std::string("unterminated string, expected a closing ") + c,
                            std::string("a closing ") + c);
      }
      t.kind = Tok::string;
      t.text = std::string(m.substr(i + 1, close - i - 1));
      i = close + 1;
    } else if (std::string_view("<>=!~").find(c) != std::string_view::npos) {
      std::size_t n = 1;
      while (i + n < m.size() && n < 3 && std::string_view("<>=!~").find(m[i + n]) != std::string_view::npos) ++n;
      t.kind = Tok::op;
      t.text = std::string(m.substr(i, n));
      static constexpr std::array<std::string_view, 8> kOps = {"<", "<=", "==", "!=", ">=", ">", "~=", "==="};
      bool known = false;
      for (auto o : kOps) known = known || o == t.text;
      if (!known) return marker_error(m, t.pos, "unknown operator '" + shorten(t.text) + "'");
      i += n;
    } else if (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.') {
      std::size_t n = 0;
      while (i + n < m.size() &&
             (std::isalnum(static_cast<unsigned char>(m[i + n])) || m[i + n] == '_' || m[i + n] == '.')) {
        ++n;
      }
      t.kind = Tok::ident;
      t.text = std::string(m.substr(i, n));
      i += n;
    } else {
      return marker_error(m, i + 1, std::string("unexpected character '") + c + "'");
    }
    out.push_back(std::move(t));
  }
  out.push_back(Token{Tok::end, "", m.size() + 1});
  return out;
}

class Parser {
 public:
  Parser(std::string_view marker, std::vector<Token> tokens) : marker_(marker), tokens_(std::move(tokens)) {}

  Result<std::unique_ptr<Node>> parse() {
    auto node = parse_or();
    if (!node) return node;
    if (peek().kind != Tok::end) {
      return error("expected 'and', 'or' or the end of the marker, got '" + shorten(peek().text) + "'",
                   "'and', 'or' or the end of the marker");
    }
    return node;
  }

 private:
  const Token& peek() const { return tokens_[at_]; }
  bool keyword(std::string_view word) const { return peek().kind == Tok::ident && peek().text == word; }
  Error error(const std::string& what, std::string expected = {}) const {
    return marker_error(marker_, peek().pos, what, std::move(expected));
  }

  Result<std::unique_ptr<Node>> parse_or() { return parse_chain("or", Node::any_of); }
  Result<std::unique_ptr<Node>> parse_and() { return parse_chain("and", Node::all_of); }

  Result<std::unique_ptr<Node>> parse_chain(std::string_view word, Node::Kind kind) {
    auto first = kind == Node::any_of ? parse_and() : parse_expr();
    if (!first) return first;
    if (!keyword(word)) return first;
    auto node = std::make_unique<Node>();
    node->kind = kind;
    node->children.push_back(std::move(*first));
    while (keyword(word)) {
      ++at_;
      auto next = kind == Node::any_of ? parse_and() : parse_expr();
      if (!next) return next;
      node->children.push_back(std::move(*next));
    }
    return node;
  }

  Result<std::unique_ptr<Node>> parse_expr() {
    if (peek().kind == Tok::lparen) {
      // The descent recurses once per parenthesis: bounded, so that 100,000 of them are an
      // error, not a stack overflow.
      if (depth_ == limits::kMaxMarkerDepth) {
        return error("more than " + std::to_string(limits::kMaxMarkerDepth) +
                     " nested parentheses (extdeps reads at most that)");
      }
      ++depth_;
      ++at_;
      auto inner = parse_or();
      if (!inner) return inner;
      if (peek().kind != Tok::rparen) return error("expected ')'", "')'");
      ++at_;
      --depth_;
      return inner;
    }
    auto node = std::make_unique<Node>();
    auto lhs = parse_value();
    if (!lhs) return lhs.error();
    node->lhs = std::move(*lhs);
    if (peek().kind == Tok::op) {
      node->op = peek().text;
      ++at_;
    } else if (keyword("in")) {
      node->op = "in";
      ++at_;
    } else if (keyword("not")) {
      ++at_;
      if (!keyword("in")) return error("expected 'in' after 'not'", "'in' after 'not'");
      node->op = "not in";
      ++at_;
    } else {
      return error(peek().kind == Tok::end ? "expected a comparison operator"
                                           : "expected a comparison operator, got '" + shorten(peek().text) + "'",
                   "a comparison operator");
    }
    auto rhs = parse_value();
    if (!rhs) return rhs.error();
    node->rhs = std::move(*rhs);
    return node;
  }

  Result<Value> parse_value() {
    const Token& t = peek();
    if (t.kind == Tok::string) {
      ++at_;
      return Value{false, t.text};
    }
    if (t.kind == Tok::ident && t.text != "and" && t.text != "or" && t.text != "in" && t.text != "not") {
      bool known = false;
      for (auto v : kVariables) known = known || v == t.text;
      if (!known) {
        const std::string what = "unknown marker variable '" + shorten(t.text) + "'";
        Error e = error_at(ExitCode::bad_input, "", what);
        if (auto near = did_you_mean(t.text, kVariables)) {
          e.hint = "did you mean '" + *near + "'?";
          e.message += " (" + e.hint + ")";
        }
        return e;
      }
      ++at_;
      return Value{true, t.text};
    }
    return error(t.kind == Tok::end ? "expected a marker variable or a quoted string"
                                    : "expected a marker variable or a quoted string, got '" + shorten(t.text) + "'",
                 "a marker variable or a quoted string");
  }

  std::string_view marker_;
  std::vector<Token> tokens_;
  std::size_t at_ = 0;
  std::size_t depth_ = 0;  // parentheses open at the current token
};

Result<std::unique_ptr<Node>> parse_marker(std::string_view marker) {
  auto tokens = tokenize(marker);
  if (!tokens) return tokens.error();
  if (tokens->size() == 1) return error_at(ExitCode::bad_input, "", "empty marker");
  return Parser(marker, std::move(*tokens)).parse();
}

Result<bool> compare_strings(const std::string& op, const std::string& a, const std::string& b) {
  if (op == "==" || op == "===") return a == b;
  if (op == "!=") return a != b;
  if (op == "<") return a < b;
  if (op == "<=") return a <= b;
  if (op == ">") return a > b;
  if (op == ">=") return a >= b;
  return error_at(ExitCode::bad_input, "", "cannot compare '" + a + "' " + op + " '" + b + "': they are not versions");
}

Result<bool> evaluate(const Node& node, const MarkerEnv& env) {
  if (node.kind != Node::compare) {
    bool want_all = node.kind == Node::all_of;
    for (const auto& child : node.children) {
      auto r = evaluate(*child, env);
      if (!r) return r;
      if (*r != want_all) return !want_all;
    }
    return want_all;
  }
  auto resolve = [&env](const Value& v) -> Result<std::string> {
    if (!v.variable) return v.text;
    auto it = env.find(v.text);
    if (it != env.end()) return it->second;
    if (v.text == "extra") return std::string();  // no group asked for
    Error e = error_at(ExitCode::bad_input, "", "marker variable '" + v.text + "' has no value here");
    if (is_version_variable(v.text)) {
      e.message += " (no python3 on PATH; set EXTDEPS_PYTHON_VERSION)";
      e.what += " (no python3 on PATH)";
      e.hint = "set EXTDEPS_PYTHON_VERSION";
    }
    return e;
  };
  auto lhs = resolve(node.lhs);
  if (!lhs) return lhs.error();
  auto rhs = resolve(node.rhs);
  if (!rhs) return rhs.error();
  std::string a = std::move(*lhs), b = std::move(*rhs);
  bool is_extra = (node.lhs.variable && node.lhs.text == "extra") || (node.rhs.variable && node.rhs.text == "extra");
  if (is_extra) {
    a = normalize_name(a);
    b = normalize_name(b);
  }
  if (node.op == "in") return b.find(a) != std::string::npos;
  if (node.op == "not in") return b.find(a) == std::string::npos;
  bool versions = (node.lhs.variable && is_version_variable(node.lhs.text)) ||
                  (node.rhs.variable && is_version_variable(node.rhs.text));
  if (versions && node.op != "===") {
    // "a OP b" is "a satisfies the specifier OP b", as packaging evaluates it.
    auto spec = parse_range(node.op + b);
    auto a_ok = parse_range(a);
    if (spec && a_ok && !a.empty() && a.find_first_of("<>=!~*,") == std::string::npos) {
      return range_contains(*spec, a);
    }
  }
  return compare_strings(node.op, a, b);
}

}  // namespace

Result<void> check_marker(std::string_view marker) {
  auto tree = parse_marker(marker);
  if (!tree) return tree.error();
  return {};
}

Result<bool> evaluate_marker(std::string_view marker, const MarkerEnv& env) {
  auto tree = parse_marker(marker);
  if (!tree) return tree.error();
  return evaluate(**tree, env);
}

}  // namespace extdeps::declare
