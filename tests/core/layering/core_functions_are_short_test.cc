// Issue 32 item 5: no function in core/ is longer than 100 lines. A long function holds several
// concepts; split it where they part (Resolver::solve, run_process, import_pep804, engine::plan,
// parse_depurl and table_cache::decode were). The scan blanks comments and literals, follows the
// braces, and measures every function body whose enclosing block is a namespace, a class or the
// file: free functions and member functions, in a class or out of it, from the line their
// signature starts on to their closing brace. A lambda counts as part of its function.
#include <gtest/gtest.h>

#include <cctype>
#include <filesystem>
#include <string>
#include <vector>

#include "tests/test_support.h"

namespace fs = std::filesystem;

namespace extdeps {
namespace {

constexpr int kMaxLines = 100;

// The text with comments, string and character literals blanked (their line breaks kept).
std::string code_only(const std::string& s) {
  std::string out = s;
  for (std::size_t i = 0; i < s.size();) {
    auto blank = [&](std::size_t from, std::size_t to) {
      for (std::size_t k = from; k < to && k < s.size(); ++k)
        if (out[k] != '\n') out[k] = ' ';
    };
    if (s.compare(i, 2, "//") == 0) {
      const std::size_t end = s.find('\n', i);
      blank(i, end);
      i = end == std::string::npos ? s.size() : end;
    } else if (s.compare(i, 2, "/*") == 0) {
      const std::size_t end = s.find("*/", i + 2);
      const std::size_t stop = end == std::string::npos ? s.size() : end + 2;
      blank(i, stop);
      i = stop;
    } else if (s[i] == '#' && (i == 0 || s[i - 1] == '\n')) {
      // A preprocessor line (#include <map>): not code the braces follow.
      std::size_t end = i;
      while (end < s.size() && (s[end] != '\n' || s[end - 1] == '\\')) ++end;
      blank(i, end);
      i = end;
    } else if (s[i] == 'R' && i + 1 < s.size() && s[i + 1] == '"' &&
               (i == 0 || !std::isalnum(static_cast<unsigned char>(s[i - 1])))) {
      const std::size_t open = s.find('(', i);
      const std::string close = ")" + s.substr(i + 2, open - i - 2) + "\"";
      const std::size_t end = s.find(close, open);
      const std::size_t stop = end == std::string::npos ? s.size() : end + close.size();
      blank(i + 1, stop);
      i = stop;
    } else if (s[i] == '"' || (s[i] == '\'' && (i == 0 || !std::isxdigit(static_cast<unsigned char>(s[i - 1]))))) {
      const char q = s[i];
      std::size_t k = i + 1;
      while (k < s.size() && s[k] != q && s[k] != '\n') k += s[k] == '\\' ? 2 : 1;
      blank(i + 1, k);
      i = k + 1;
    } else {
      ++i;
    }
  }
  return out;
}

struct LongFunction {
  std::string file, head;
  int lines = 0;
};

bool starts_with_word(const std::string& h, std::string_view word) {
  return h.rfind(word, 0) == 0 &&
         (h.size() == word.size() || !std::isalnum(static_cast<unsigned char>(h[word.size()])));
}

// Whether a block opened in a scope after `head` is a function's body: its head has a parameter
// list, and is not a type's or a namespace's, nor a variable's initializer.
bool is_function_head(const std::string& h) {
  const std::size_t paren = h.find('(');
  if (paren == std::string::npos) return false;
  for (std::string_view w : {"namespace", "struct", "class", "union", "enum"})
    if (starts_with_word(h, w)) return false;
  const std::size_t eq = h.find('=');
  return eq > paren || h.find("operator") < paren;
}

// Whether it is a scope that holds functions: a namespace, a type, an extern "C" block.
bool is_scope_head(const std::string& h) {
  if (h.find('(') != std::string::npos) return false;
  for (std::string_view w : {"namespace", "struct", "class", "union", "enum", "extern", "template"})
    if (starts_with_word(h, w)) return true;
  return false;
}

// The functions of one file, with their lengths (from the line the signature starts on).
std::vector<LongFunction> functions_of(const std::string& file, const std::string& text) {
  enum class Block { scope, function, other };  // scope: a namespace, a class or the file
  std::vector<Block> stack;
  std::vector<std::pair<std::size_t, int>> open;  // each open function: its entry, its first line
  std::vector<LongFunction> out;
  std::string head;  // the text since the last ';', '{' or '}'
  int line = 1, head_line = 1;
  for (char c : text) {
    if (c == '\n') ++line;
    if (c == '{' || c == '}' || c == ';') {
      const std::size_t first = head.find_first_not_of(" \t\n");
      std::string h = first == std::string::npos ? "" : head.substr(first);
      head.clear();
      if (c == ';') continue;
      if (c == '}') {
        if (stack.empty()) continue;
        if (stack.back() == Block::function) {
          out[open.back().first].lines = line - open.back().second + 1;
          open.pop_back();
        }
        stack.pop_back();
        continue;
      }
      const bool in_scope = stack.empty() || stack.back() == Block::scope;
      if (in_scope && is_function_head(h)) {
        stack.push_back(Block::function);
        std::string first_line = h.substr(0, h.find('\n'));
        while (!first_line.empty() && first_line.back() == ' ') first_line.pop_back();
        open.emplace_back(out.size(), head_line);
        out.push_back({file, first_line, 0});
      } else {
        stack.push_back(in_scope && is_scope_head(h) ? Block::scope : Block::other);
      }
      continue;
    }
    if (head.find_first_not_of(" \t\n") == std::string::npos && !std::isspace(static_cast<unsigned char>(c)))
      head_line = line;
    head += c;
  }
  return out;
}

std::vector<LongFunction> long_functions(const std::string& file, const std::string& text) {
  std::vector<LongFunction> out;
  for (auto& f : functions_of(file, text))
    if (f.lines > kMaxLines) out.push_back(std::move(f));
  return out;
}

TEST(CoreFunctionsAreShort, NoneIsLongerThanAHundredLines) {
  const fs::path core = fs::path(EXTDEPS_SOURCE_MAPPINGS_DIR).parent_path() / "core";
  std::size_t files = 0, measured = 0;
  std::string found;
  for (const auto& e : fs::recursive_directory_iterator(core)) {
    if (e.path().extension() != ".cc" && e.path().extension() != ".h") continue;
    ++files;
    const std::string text = code_only(test::read_file(e.path().string()));
    const auto functions = functions_of(fs::relative(e.path(), core.parent_path()).string(), text);
    measured += functions.size();
    for (const auto& f : functions)
      if (f.lines > kMaxLines) found += "\n  " + f.file + ": " + std::to_string(f.lines) + " lines: " + f.head;
  }
  EXPECT_GT(files, 100u);
  EXPECT_TRUE(found.empty()) << "functions over " << kMaxLines << " lines; split them by concept:" << found;
  // The scan sees a long function: one of 101 lines is found, one of 100 is not.
  std::string body;
  for (int i = 0; i < 99; ++i) body += "  x();\n";
  const auto one = long_functions("t.cc", "namespace a {\nint f(int x) {\n" + body + "}\n}  // namespace a\n");
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0].lines, 101);
  EXPECT_EQ(one[0].head, "int f(int x)");
  EXPECT_TRUE(long_functions("t.cc", "struct S {\n  void g() {\n" + body.substr(7) + "  }\n};\n").empty());
  const auto member =
      long_functions("t.cc", "class C {\n void g(\n   int y) const {\n" + body + "  if (y) { z(); }\n }\n};\n");
  ASSERT_EQ(member.size(), 1u);
  EXPECT_EQ(member[0].lines, 103);
  EXPECT_GT(measured, 1000u) << "the scan finds core's functions";
  // Every function is measured: these three, of 101, 100 and 3 lines, in a file of includes.
  const auto all = functions_of(
      "t.cc", code_only("#include <map>\n#include <vector>\nbool operator==(A a, B b) {\n" + body + "}\nvoid h() {\n" +
                        body.substr(7) + "}\nnamespace {\nint k() {\n  return 1;\n}\n}\n"));
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(all[0].lines, 101);
  EXPECT_EQ(all[1].lines, 100);
  EXPECT_EQ(all[2].lines, 3);
}

}  // namespace
}  // namespace extdeps
