#include "providers/dnf/modulemd_yaml.h"

#include <algorithm>
#include <optional>
#include <utility>

#include "core/util/limits.h"
#include "core/util/text.h"

namespace extdeps::dnf::modulemd {

namespace {

// modules.yaml is read by a reader of the YAML that modulemd files are written in (libmodulemd
// writes them through libyaml's emitter), not by a general YAML library: Debian bookworm's
// yaml-cpp 0.7 never returns, allocating without bound, on a ',' where a node begins, and
// fuzzing found 62 shapes of it (tests/fuzz/corpus/dnf_modules/loop-*). The reader takes one pass
// over the lines, each node once, nesting at most kMaxYamlDepth (core/util/limits.h); it keeps
// only what modularity needs (`document`, and `data`'s `name`, `stream`, `module` and
// `artifacts: rpms`), each document handed on as it is read, so its memory is what is kept, not
// the file's size.
//
// What it reads: documents ("---", "...", "%" directives), block mappings and lists (a list
// may sit at its key's indentation), plain scalars over several lines, '...' and "..." scalars
// over several lines with YAML's escapes, block scalars ('|', '>' and their indicators), flow
// lists and mappings over several lines, comments. What it refuses, with its line and column:
// anchors, aliases, tags and complex keys (modulemd has none), a ',' or another indicator where
// a value begins, an empty entry in a flow list, a tab in indentation, text YAML does not allow
// in a stream (a control character but tab, CR and LF; bytes that are not UTF-8), and anything
// outside this grammar.

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

// What of a node is kept: `drop` nodes are read (so their syntax is checked) and thrown away.
enum class Keep : unsigned char { drop, root, data, artifacts, rpms, leaf };

Keep keep_under(Keep k, std::string_view key) {
  switch (k) {
    case Keep::root: return key == "document" ? Keep::leaf : key == "data" ? Keep::data : Keep::drop;
    case Keep::data:
      if (key == "name" || key == "stream" || key == "module") return Keep::leaf;
      return key == "artifacts" ? Keep::artifacts : Keep::drop;
    case Keep::artifacts: return key == "rpms" ? Keep::rpms : Keep::drop;
    default: return Keep::drop;
  }
}

bool blank_char(char c) { return c == ' ' || c == '\t'; }

class ModulemdReader {
 public:
  explicit ModulemdReader(std::string_view text) {
    if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);  // columns count from after it
    for (std::size_t i = 0; i <= text.size();) {
      std::size_t eol = text.find('\n', i);
      if (eol == std::string_view::npos) eol = text.size();
      std::string_view l = text.substr(i, eol - i);
      if (l.ends_with('\r')) l.remove_suffix(1);
      if (eol < text.size() || !l.empty()) lines_.push_back(l);
      i = eol + 1;
    }
  }

  // Calls `each` with every document's root, in order.
  void read(const std::function<void(const Node&)>& each) {
    check_text();
    while (true) {
      skip_blank(true);
      if (li_ >= lines_.size()) return;
      std::string_view l = lines_[li_];
      if (marker(l, "...")) {
        if (!rest_blank(l, 3)) fail(li_, 3, "text after '...'");
        ++li_;
        continue;
      }
      Node root;
      if (marker(l, "---")) {
        const std::size_t at = l.find_first_not_of(" \t", 3);
        if (at == std::string_view::npos || l[at] == '#') {
          ++li_;
          root = block(-1, Keep::root, 0);
        } else {
          root = node_at(at, -1, Keep::root, 0);
        }
      } else {
        root = block(-1, Keep::root, 0);
      }
      each(root);
      skip_blank(false);
      if (li_ < lines_.size() && !marker(lines_[li_], "---") && !marker(lines_[li_], "..."))
        fail(li_, indent(lines_[li_]), "more text after a document's node (a new document starts with '---')");
    }
  }

 private:
  std::vector<std::string_view> lines_;
  std::size_t li_ = 0;       // the line being read
  std::size_t end_col_ = 0;  // past a quoted scalar or a flow collection on line li_

  [[noreturn]] void fail(std::size_t line, std::size_t column, std::string what) const {
    throw Bad{line + 1, column + 1, std::move(what)};
  }

  // YAML's stream: no control character but tab (CR and LF are line ends), UTF-8 throughout.
  void check_text() const {
    for (std::size_t n = 0; n < lines_.size(); ++n) {
      const std::string_view l = lines_[n];
      for (std::size_t k = 0; k < l.size(); ++k) {
        const auto u = static_cast<unsigned char>(l[k]);
        if ((u < 0x20 && u != '\t' && u != '\r') || u == 0x7f) fail(n, k, "a control character");
        if (u >= 0x80) {
          if (utf8_valid_length(l.substr(k, 4)) == 0) fail(n, k, "bytes that are not UTF-8");
          k += (u & 0xe0) == 0xc0 ? 1 : (u & 0xf0) == 0xe0 ? 2 : 3;
        }
      }
    }
  }

  static bool marker(std::string_view l, std::string_view m) {
    return l.starts_with(m) && (l.size() == 3 || blank_char(l[3]));
  }
  static std::size_t indent(std::string_view l) {
    const std::size_t n = l.find_first_not_of(' ');
    return n == std::string_view::npos ? l.size() : n;
  }
  // Nothing but blanks, or a comment, from `at` on.
  static bool rest_blank(std::string_view l, std::size_t at) {
    const std::size_t n = l.find_first_not_of(" \t", at);
    return n == std::string_view::npos || (l[n] == '#' && (n == 0 || blank_char(l[n - 1])));
  }
  // Whether line `n` holds no node: blanks and a comment at most (and, out of a document, a
  // directive). A tab where the indentation goes, before text, is refused.
  bool blank_line(std::size_t n, bool directives) const {
    const std::string_view l = lines_[n];
    const std::size_t i = indent(l);
    if (rest_blank(l, i)) return true;
    if (l[i] == '\t') fail(n, i, "a tab where the indentation goes");
    return directives && l[0] == '%';
  }
  void skip_blank(bool directives = false) {
    while (li_ < lines_.size() && blank_line(li_, directives)) ++li_;
  }
  bool at_end() const { return li_ >= lines_.size() || marker(lines_[li_], "---") || marker(lines_[li_], "..."); }
  static bool list_item(std::string_view l, std::size_t at) {
    return at < l.size() && l[at] == '-' && (at + 1 == l.size() || blank_char(l[at + 1]));
  }
  void deeper(int depth) const {
    if (static_cast<std::size_t>(depth) >= limits::kMaxYamlDepth)
      fail(li_, 0, "nodes nested deeper than " + std::to_string(limits::kMaxYamlDepth) + " (docs/limits.md)");
  }

  // A node on the lines from li_ on, more indented than `parent`; none when there is none.
  Node block(long parent, Keep keep, int depth) {
    skip_blank();
    if (at_end()) return {};
    const std::size_t n = indent(lines_[li_]);
    if (static_cast<long>(n) <= parent) return {};
    return node_at(n, parent, keep, depth);
  }

  // The node whose first character is at column `col` of line li_; its parent is at `parent`.
  Node node_at(std::size_t col, long parent, Keep keep, int depth) {
    deeper(depth);
    const std::string_view l = lines_[li_];
    const char c = l[col];
    if (list_item(l, col)) return list(col, keep, depth);
    if (c == '|' || c == '>') return block_scalar(col, parent);
    if (c == '[' || c == '{') {
      Node n = flow_at(col, keep, depth);
      end_of_line();
      return n;
    }
    if (key_colon(l, col)) return map(col, keep, depth);
    return scalar_value(col, parent);
  }

  // Where the ':' of a key that starts at `col` is (a mapping's entry), if the line has one.
  std::optional<std::size_t> key_colon(std::string_view l, std::size_t col) const {
    std::size_t k = col;
    if (l[col] == '\'' || l[col] == '"') {
      std::size_t line = li_;
      quoted(line, k);
      if (line != li_) return std::nullopt;  // a key is on one line
      while (k < l.size() && blank_char(l[k])) ++k;
      if (k < l.size() && l[k] == ':' && (k + 1 == l.size() || blank_char(l[k + 1]))) return k;
      return std::nullopt;
    }
    for (; k < l.size(); ++k) {
      if (l[k] == '#' && k > col && blank_char(l[k - 1])) return std::nullopt;
      if (l[k] == ':' && (k + 1 == l.size() || blank_char(l[k + 1]))) return k;
    }
    return std::nullopt;
  }

  void refuse_indicator(std::size_t line, std::size_t col) const {
    const char c = lines_[line][col];
    if (c == '&' || c == '*' || c == '!') fail(line, col, "an anchor, alias or tag (modulemd has none)");
    if (c == '?') fail(line, col, "a complex key (modulemd has none)");
    if (c == ',' || c == ']' || c == '}' || c == '%' || c == '@' || c == '`' || c == '#')
      fail(line, col, std::string("a '") + c + "' where a value begins");
  }

  // A block mapping whose keys are at column `n`; its first key at li_.
  Node map(std::size_t n, Keep keep, int depth) {
    Node m;
    m.kind = Node::Kind::map;
    while (true) {
      const std::string_view l = lines_[li_];
      const auto colon = key_colon(l, n);
      if (!colon) fail(li_, n, list_item(l, n) ? "a list item where a key goes" : "expected 'key: value'");
      std::string key;
      if (l[n] == '\'' || l[n] == '"') {
        std::size_t line = li_, k = n;
        key = quoted(line, k);
      } else {
        refuse_indicator(li_, n);
        key = std::string(trim(l.substr(n, *colon - n)));
      }
      const Keep k = keep == Keep::drop ? Keep::drop : keep_under(keep, key);
      Node value = value_after(*colon + 1, static_cast<long>(n), k, depth + 1);
      if (k != Keep::drop) m.add(std::move(key), std::move(value));
      skip_blank();
      if (at_end()) break;
      const std::size_t next = indent(lines_[li_]);
      if (next < n) break;
      if (next > n) fail(li_, next, "more indented than its mapping's keys");
    }
    return m;
  }

  // A mapping's value, from column `at` of line li_ (past the ':'); the keys are at `n`.
  Node value_after(std::size_t at, long n, Keep keep, int depth) {
    deeper(depth);
    const std::string_view l = lines_[li_];
    while (at < l.size() && blank_char(l[at])) ++at;
    if (rest_blank(l, at)) {
      ++li_;
      skip_blank();
      if (!at_end() && static_cast<long>(indent(lines_[li_])) == n && list_item(lines_[li_], n))
        return list(n, keep, depth);  // a list at its key's indentation
      return block(n, keep, depth);
    }
    const char c = l[at];
    if (c == '|' || c == '>') return block_scalar(at, n);
    if (list_item(l, at)) fail(li_, at, "a list that starts on its key's line");
    if (c == '[' || c == '{') {
      Node v = flow_at(at, keep, depth);
      end_of_line();
      return v;
    }
    if (c != '\'' && c != '"' && key_colon(l, at)) fail(li_, at, "a second 'key:' on one line");
    return scalar_value(at, n);
  }

  // A block list whose '-' are at column `n`; its first item at li_.
  Node list(std::size_t n, Keep keep, int depth) {
    Node s;
    s.kind = Node::Kind::seq;
    const Keep k = keep == Keep::rpms ? Keep::leaf : Keep::drop;
    while (true) {
      deeper(depth);
      const std::string_view l = lines_[li_];
      std::size_t at = n + 1;
      while (at < l.size() && blank_char(l[at])) ++at;
      Node item;
      if (rest_blank(l, at)) {
        ++li_;
        item = block(static_cast<long>(n), k, depth + 1);
      } else {
        item = node_at(at, static_cast<long>(n), k, depth + 1);
      }
      if (k != Keep::drop) s.items.push_back(std::move(item));
      skip_blank();
      if (at_end()) break;
      const std::size_t next = indent(lines_[li_]);
      if (next < n || (next == n && !list_item(lines_[li_], n))) break;
      if (next > n) fail(li_, next, "more indented than its list's items");
    }
    return s;
  }

  // After a quoted scalar or a flow collection: nothing but a comment on the rest of the line.
  void end_of_line() {
    const std::string_view l = lines_[li_];
    if (!rest_blank(l, end_col_))
      fail(li_, l.find_first_not_of(" \t", end_col_), "more text after a value (expected the line's end)");
    ++li_;
  }

  // A quoted or plain scalar at column `at` of line li_, in a block whose parent is at `parent`.
  Node scalar_value(std::size_t at, long parent) {
    const std::string_view l = lines_[li_];
    Node v;
    v.kind = Node::Kind::scalar;
    if (l[at] == '\'' || l[at] == '"') {
      std::size_t line = li_, k = at;
      v.text = quoted(line, k);
      li_ = line;
      end_col_ = k;
      end_of_line();
      return v;
    }
    refuse_indicator(li_, at);
    // Plain: to a comment or the line's end, then the lines more indented than the parent.
    auto cut = [](std::string_view s, std::size_t from) {
      std::size_t end = s.size();
      for (std::size_t k = from; k < s.size(); ++k)
        if (s[k] == '#' && blank_char(s[k - 1])) {
          end = k;
          break;
        }
      return trim(s.substr(from, end - from));
    };
    v.text = std::string(cut(l, at));
    ++li_;
    std::size_t breaks = 0;
    while (li_ < lines_.size()) {
      const std::string_view next = lines_[li_];
      const std::size_t i = next.find_first_not_of(" \t");
      if (i == std::string_view::npos) {
        ++breaks, ++li_;
        continue;
      }
      if (at_end() || static_cast<long>(indent(next)) <= parent || next[i] == '#') break;
      if (next[indent(next)] == '\t') fail(li_, indent(next), "a tab where the indentation goes");
      if (key_colon(next, i)) fail(li_, i, "a 'key:' in a text that goes over several lines");
      v.text += breaks == 0 ? std::string(" ") : std::string(breaks, '\n');
      v.text += cut(next, i);
      breaks = 0;
      ++li_;
      if (cut(next, i).size() != trim(next.substr(i)).size()) break;  // a comment ends it
    }
    if (v.text == "~" || v.text == "null" || v.text == "Null" || v.text == "NULL") return {};
    return v;
  }

  // A '...' or "..." scalar opening at (line, k); both are moved past its closing quote.
  std::string quoted(std::size_t& line, std::size_t& k) const {
    const std::size_t open_line = line, open_col = k;
    const char q = lines_[line][k++];
    std::string out;
    while (true) {
      const std::string_view l = lines_[line];
      bool joined = false;  // an escaped line break: the lines join with nothing between
      for (; k < l.size(); ++k) {
        const char c = l[k];
        if (q == '\'' && c == '\'') {
          if (k + 1 < l.size() && l[k + 1] == '\'') {
            out += '\'';
            ++k;
            continue;
          }
          ++k;
          return out;
        }
        if (q == '"' && c == '"') {
          ++k;
          return out;
        }
        if (q == '"' && c == '\\') {
          if (k + 1 == l.size()) {
            joined = true;
            break;
          }
          k = escape(line, k, out) - 1;
          continue;
        }
        out += c;
      }
      // A line break in quotes folds: the blanks around it go, an empty line is a '\n'.
      if (!joined)
        while (!out.empty() && blank_char(out.back())) out.pop_back();
      std::size_t breaks = 0;
      do {
        if (++line >= lines_.size()) fail(open_line, open_col, "a quote that is never closed");
        if (marker(lines_[line], "---") || marker(lines_[line], "..."))
          fail(line, 0, "a document marker inside a quoted text");
        k = lines_[line].find_first_not_of(" \t");
        if (k == std::string_view::npos) ++breaks;
      } while (k == std::string_view::npos);
      if (!joined) out += breaks == 0 ? std::string(" ") : std::string(breaks, '\n');
    }
  }
  // A "..." escape at column k of `line` ('\\' there): appended to `out`; returns the column past it.
  std::size_t escape(std::size_t line, std::size_t k, std::string& out) const {
    const std::string_view l = lines_[line];
    const char e = l[k + 1];
    static constexpr std::string_view kFrom = "0abtnvfre \"/\\N_LP\t";
    static constexpr std::string_view kTo[] = {std::string_view("\0", 1),
                                               "\a",
                                               "\b",
                                               "\t",
                                               "\n",
                                               "\v",
                                               "\f",
                                               "\r",
                                               "\x1b",
                                               " ",
                                               "\"",
                                               "/",
                                               "\\",
                                               "\xC2\x85",
                                               "\xC2\xA0",
                                               "\xE2\x80\xA8",
                                               "\xE2\x80\xA9",
                                               "\t"};
    if (const std::size_t i = kFrom.find(e); i != std::string_view::npos) {
      out += kTo[i];
      return k + 2;
    }
    const std::size_t digits = e == 'x' ? 2 : e == 'u' ? 4 : e == 'U' ? 8 : 0;
    if (digits == 0 || k + 2 + digits > l.size()) fail(line, k, "an escape YAML does not have");
    std::uint32_t cp = 0;
    for (std::size_t d = 0; d < digits; ++d) {
      const char h = l[k + 2 + d];
      const int v = h >= '0' && h <= '9'   ? h - '0'
                    : h >= 'a' && h <= 'f' ? h - 'a' + 10
                    : h >= 'A' && h <= 'F' ? h - 'A' + 10
                                           : -1;
      if (v < 0) fail(line, k, "an escape YAML does not have");
      cp = cp << 4 | static_cast<std::uint32_t>(v);
    }
    if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) fail(line, k, "an escape of no Unicode character");
    if (cp < 0x80) {
      out += static_cast<char>(cp);
    } else if (cp < 0x800) {
      out += static_cast<char>(0xc0 | cp >> 6), out += static_cast<char>(0x80 | (cp & 0x3f));
    } else if (cp < 0x10000) {
      out += static_cast<char>(0xe0 | cp >> 12), out += static_cast<char>(0x80 | (cp >> 6 & 0x3f));
      out += static_cast<char>(0x80 | (cp & 0x3f));
    } else {
      out += static_cast<char>(0xf0 | cp >> 18), out += static_cast<char>(0x80 | (cp >> 12 & 0x3f));
      out += static_cast<char>(0x80 | (cp >> 6 & 0x3f)), out += static_cast<char>(0x80 | (cp & 0x3f));
    }
    return k + 2 + digits;
  }

  // '|' or '>' at column `at` of line li_, its parent at `parent`: the text of the lines under it.
  Node block_scalar(std::size_t at, long parent) {
    const std::string_view l = lines_[li_];
    const bool folded = l[at] == '>';
    char chomp = 0;
    std::size_t explicit_indent = 0, k = at + 1;
    for (; k < l.size() && !blank_char(l[k]); ++k) {
      if ((l[k] == '+' || l[k] == '-') && chomp == 0) chomp = l[k];
      else if (l[k] >= '1' && l[k] <= '9' && explicit_indent == 0)
        explicit_indent = static_cast<std::size_t>(l[k] - '0');
      else fail(li_, k, "expected a block scalar's indicators ('+', '-', a digit)");
    }
    if (!rest_blank(l, k)) fail(li_, k, "text after a block scalar's indicator");
    ++li_;
    const std::size_t base = parent < 0 ? 0 : static_cast<std::size_t>(parent) + 1;
    std::optional<std::size_t> m;  // the content's indentation: given, or the first text line's
    if (explicit_indent) m = (parent < 0 ? 0 : static_cast<std::size_t>(parent)) + explicit_indent;
    std::vector<std::string_view> body;
    std::size_t last = li_;  // past the last content line
    for (std::size_t n = li_; n < lines_.size(); ++n) {
      const std::string_view line = lines_[n];
      const std::size_t i = indent(line);
      const bool empty = line.find_first_not_of(' ') == std::string_view::npos;
      if (empty) {
        body.push_back({});
        continue;
      }
      if (!m) {
        if (i < base) break;
        m = i;
      }
      if (i < *m || (i == 0 && (marker(line, "---") || marker(line, "...")))) break;
      body.push_back(line.substr(*m));
      last = n + 1;
    }
    body.resize(last - li_);  // empty lines after the text are not its
    li_ = last;
    Node v;
    v.kind = Node::Kind::scalar;
    for (std::size_t n = 0; n < body.size(); ++n) {
      if (n > 0) {
        const bool fold = folded && !body[n].empty() && !body[n - 1].empty() && !blank_char(body[n][0]) &&
                          !blank_char(body[n - 1][0]);
        v.text += fold ? ' ' : '\n';
      }
      v.text += body[n];
    }
    if (chomp != '-' && !v.text.empty()) v.text += '\n';
    return v;
  }

  // A flow collection or scalar from (li_, at): read over as many lines as it takes; li_ and
  // end_col_ are left past it.
  Node flow_at(std::size_t at, Keep keep, int depth) {
    std::size_t line = li_, k = at;
    Node n = flow(line, k, keep, depth);
    li_ = line;
    end_col_ = k;
    return n;
  }

  // Blanks, line breaks and comments inside a flow collection opened at (open_line, open_col).
  void flow_space(std::size_t& line, std::size_t& k, std::size_t open_line, std::size_t open_col) const {
    while (true) {
      const std::string_view l = lines_[line];
      while (k < l.size() && blank_char(l[k])) ++k;
      if (k < l.size() && !(l[k] == '#' && (k == 0 || blank_char(l[k - 1])))) return;
      if (++line >= lines_.size())
        fail(open_line, open_col, std::string("a '") + lines_[open_line][open_col] + "' that is never closed");
      if (marker(lines_[line], "---") || marker(lines_[line], "..."))
        fail(line, 0, "a document marker inside a flow collection");
      k = 0;
    }
  }

  Node flow(std::size_t& line, std::size_t& k, Keep keep, int depth) {
    deeper(depth);
    const std::string_view l = lines_[line];
    const char c = l[k];
    if (c == '[' || c == '{') {
      const std::size_t open_line = line, open_col = k;
      const char close = c == '[' ? ']' : '}';
      Node n;
      n.kind = c == '[' ? Node::Kind::seq : Node::Kind::map;
      ++k;
      while (true) {
        flow_space(line, k, open_line, open_col);
        if (lines_[line][k] == close) {
          ++k;
          return n;
        }
        if (c == '[') {
          const Keep ik = keep == Keep::rpms ? Keep::leaf : Keep::drop;
          Node item = flow(line, k, ik, depth + 1);
          if (ik != Keep::drop) n.items.push_back(std::move(item));
        } else {
          const std::size_t key_line = line, key_col = k;
          Node key = flow(line, k, Keep::leaf, depth + 1);
          if (key.kind == Node::Kind::map || key.kind == Node::Kind::seq)
            fail(key_line, key_col, "a collection as a key (modulemd has none)");
          flow_space(line, k, open_line, open_col);
          Node value;
          const Keep vk = keep == Keep::drop ? Keep::drop : keep_under(keep, key.text);
          if (lines_[line][k] == ':') {
            ++k;
            flow_space(line, k, open_line, open_col);
            if (lines_[line][k] != ',' && lines_[line][k] != '}') value = flow(line, k, vk, depth + 1);
          }
          if (vk != Keep::drop) n.add(std::move(key.text), std::move(value));
        }
        flow_space(line, k, open_line, open_col);
        const char after = lines_[line][k];
        if (after == ',') {
          ++k;
          continue;
        }
        if (after != close) fail(line, k, std::string("expected ',' or '") + close + "'");
      }
    }
    Node v;
    v.kind = Node::Kind::scalar;
    if (c == '\'' || c == '"') {
      v.text = quoted(line, k);
      return v;
    }
    if (c == '[' || c == '{' || c == ':') fail(line, k, "expected a value");
    refuse_indicator(line, k);
    // Plain, in a flow: to ',', '[', ']', '{', '}', ": ", ':' before one of those, or a comment;
    // over line breaks (each a blank).
    while (true) {
      const std::string_view t = lines_[line];
      const std::size_t from = k;
      for (; k < t.size(); ++k) {
        const char d = t[k];
        if (d == ',' || d == '[' || d == ']' || d == '{' || d == '}') break;
        if (d == ':' && (k + 1 == t.size() || blank_char(t[k + 1]) ||
                         std::string_view(",[]{}").find(t[k + 1]) != std::string_view::npos))
          break;
        if (d == '#' && k > 0 && blank_char(t[k - 1])) break;
      }
      v.text += trim(t.substr(from, k - from));
      if (k < t.size() && t[k] != '#') break;
      // The next line's text goes on the scalar unless it starts with an indicator; where none
      // follows, the collection's own reading says what is wrong.
      std::size_t nl = line + 1, nk = 0;
      for (; nl < lines_.size(); ++nl) {
        nk = lines_[nl].find_first_not_of(" \t");
        if (nk != std::string_view::npos && lines_[nl][nk] != '#') break;
      }
      if (nl >= lines_.size() || marker(lines_[nl], "---") || marker(lines_[nl], "...")) break;
      const char d = lines_[nl][nk];
      line = nl, k = nk;
      if (d == ',' || d == ']' || d == '}' || d == ':' || d == '[' || d == '{') break;
      v.text += ' ';
    }
    if (v.text == "~" || v.text == "null" || v.text == "Null" || v.text == "NULL") return {};
    return v;
  }
};

}  // namespace

void read_documents(std::string_view text, const std::function<void(const Node&)>& each) {
  ModulemdReader(text).read(each);
}

}  // namespace extdeps::dnf::modulemd
