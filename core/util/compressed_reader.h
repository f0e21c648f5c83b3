// Streaming reads of compressed index files (.lz4 frames, .gz, .xz, .zst, .bz2, or plain), decompressed
// by extension or by their first bytes, so a 50 MB Packages list or a pacman sync database is
// read a megabyte at a time instead of being held whole. Shared by the providers.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "core/util/result.h"

namespace extdeps {

class CompressedReader {
 public:
  virtual ~CompressedReader() = default;
  // Opens `path`, choosing the decoder by its extension.
  static Result<std::unique_ptr<CompressedReader>> open(const std::string& path);
  // Opens `path`, choosing the decoder by its first bytes (gzip, xz, zstd, lz4 frame, bzip2 magic; else
  // plain), for files whose name does not say (pacman's "core.db").
  static Result<std::unique_ptr<CompressedReader>> open_sniffed(const std::string& path);
  // Reads `data` already in memory (it must outlive the reader); `name`'s extension picks the
  // decoder and errors name it.
  static std::unique_ptr<CompressedReader> over(std::string_view data, const std::string& name);
  // Writes up to `cap` (> 0) decompressed bytes at `dst`; 0 means the data has ended. Errors
  // name the file and, for a corrupt or truncated stream, the offset in the compressed input.
  virtual Result<size_t> read(char* dst, size_t cap) = 0;
  // `inner`, decompressed ahead on a thread of its own (a chunk or two of 1 MiB), so that a
  // caller who parses what it reads works while the next chunk is decoded: on a cold apt run the
  // lz4 frames of the 60,000-package index cost a tenth of the parse. Errors come in order,
  // where the inner reader met them. Nothing else may use `inner` afterwards.
  static std::unique_ptr<CompressedReader> prefetching(std::unique_ptr<CompressedReader> inner);
};

// All of a reader's decompressed data.
Result<std::string> read_all(CompressedReader& reader);

}  // namespace extdeps
