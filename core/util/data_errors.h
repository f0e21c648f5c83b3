// The two errors of compressed data every reader of it gives (apt lists, conda repodata, nix
// indexes), as data: the file or URL and byte offset as the place, what went wrong, what was
// expected there.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/util/result.h"

namespace extdeps {

// "NAME: corrupt CODEC data at byte offset N (expected a valid CODEC stream; WHY)"
inline Error corrupt_data(const std::string& name, std::string_view codec, std::uint64_t offset, std::string_view why) {
  const std::string c(codec);
  Error e = environment_error(name + ": corrupt " + c + " data at byte offset " + std::to_string(offset) +
                              " (expected a valid " + c + " stream; " + std::string(why) + ")");
  e.place = name + ": byte " + std::to_string(offset);
  e.what = "corrupt " + c + " data (" + std::string(why) + ")";
  e.expected = "a valid " + c + " stream";
  return e;
}

// "NAME: CODEC data ends early at byte offset N (expected the rest of the stream; the file may be
// truncated)"
inline Error truncated_data(const std::string& name, std::string_view codec, std::uint64_t offset) {
  const std::string c(codec);
  Error e = environment_error(name + ": " + c + " data ends early at byte offset " + std::to_string(offset) +
                              " (expected the rest of the stream; the file may be truncated)");
  e.place = name + ": byte " + std::to_string(offset);
  e.what = c + " data ends early";
  e.expected = "the rest of the stream";
  e.hint = "the file may be truncated";
  return e;
}

}  // namespace extdeps
