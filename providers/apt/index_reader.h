// Streaming reads of apt's index files, decompressed by extension (.lz4 frames, .gz, .xz, .zst,
// or plain), so a 50 MB Packages list is parsed a megabyte at a time instead of being held
// whole. Internal to the apt provider.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "core/util/result.h"

namespace extdeps::apt {

class IndexReader {
 public:
  virtual ~IndexReader() = default;
  // Opens `path`, choosing the decoder by its extension.
  static Result<std::unique_ptr<IndexReader>> open(const std::string& path);
  // Reads `data` already in memory (it must outlive the reader); `name`'s extension picks the
  // decoder and errors name it.
  static std::unique_ptr<IndexReader> over(std::string_view data, const std::string& name);
  // Writes up to `cap` (> 0) decompressed bytes at `dst`; 0 means the data has ended. Errors
  // name the file and, for a corrupt or truncated stream, the offset in the compressed input.
  virtual Result<size_t> read(char* dst, size_t cap) = 0;
};

}  // namespace extdeps::apt
