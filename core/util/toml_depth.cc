// The TOML depth guard (toml_depth.h). It knows only as much TOML as it needs to skip what is not
// structure: strings (basic, literal, multi-line), comments, and the line breaks that end a key.
#include "core/util/toml_depth.h"

#include "core/util/limits.h"

namespace extdeps {

std::optional<Error> toml_too_deep(std::string_view text, const std::string& path) {
  std::size_t line = 1, col = 1;
  std::size_t brackets = 0;  // open [ and { around the current point
  std::size_t dots = 0;      // dotted parts of the key being read
  std::size_t i = 0;
  auto advance = [&](std::size_t n) {
    for (std::size_t k = 0; k < n && i < text.size(); ++k, ++i) {
      if (text[i] == '\n') {
        ++line;
        col = 1;
      } else {
        ++col;
      }
    }
  };
  while (i < text.size()) {
    const char c = text[i];
    if (c == '#') {
      while (i < text.size() && text[i] != '\n') advance(1);
      continue;
    }
    if (c == '"' || c == '\'') {
      const bool multi = text.substr(i, 3) == std::string_view(c == '"' ? "\"\"\"" : "'''");
      const std::string_view close = multi ? text.substr(i, 3) : text.substr(i, 1);
      advance(close.size());
      while (i < text.size() && text.substr(i, close.size()) != close) {
        if (!multi && text[i] == '\n') break;  // unterminated: toml++ says so
        advance(c == '"' && text[i] == '\\' ? 2 : 1);
      }
      advance(close.size());
      continue;
    }
    if (c == '[' || c == '{') {
      ++brackets;
    } else if ((c == ']' || c == '}') && brackets > 0) {
      --brackets;
    } else if (c == '.') {
      ++dots;
    }
    if (c == '\n' || c == '=' || c == ',' || c == '[' || c == ']' || c == '{' || c == '}') dots = 0;
    if (dots + brackets >= limits::kMaxTomlDepth) {  // dots + 1 parts, in that many brackets
      // "f.toml:2:256: a key of more than 128 dotted parts and brackets (extdeps reads at most 128)"
      const std::string place = path + ":" + std::to_string(line) + ":" + std::to_string(col);
      const std::string limit = std::to_string(limits::kMaxTomlDepth);
      Error e = bad_input(place + ": a key of more than " + limit +
                          " dotted parts and brackets (extdeps reads at most " + limit + ")");
      e.place = place;
      e.what = "a key of more than " + limit + " dotted parts and brackets";
      e.expected = "at most " + limit;
      return e;
    }
    advance(1);
  }
  return std::nullopt;
}

}  // namespace extdeps
