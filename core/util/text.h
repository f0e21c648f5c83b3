// Small text helpers shared by the readers.
#pragma once

#include <cctype>
#include <string>
#include <string_view>

namespace extdeps {

// Messages for people start lower-case (docs/STYLE.md); libraries' own texts ("Error while
// parsing array") are brought in line.
inline std::string lower_first(std::string_view text) {
  std::string out(text);
  if (!out.empty() && std::isupper(static_cast<unsigned char>(out[0])) &&
      (out.size() == 1 || !std::isupper(static_cast<unsigned char>(out[1]))))
    out[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(out[0])));
  return out;
}

}  // namespace extdeps
