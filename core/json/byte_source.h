// Where the providers' JSON indexes come from: a file or bytes already in memory, plain,
// zstd-compressed (conda's repodata.json.zst) or brotli-compressed (a nixpkgs channel's
// packages.json.br), handed out a chunk at a time so a 250 MB index is never held whole.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "core/util/result.h"

namespace extdeps::json {

class ByteSource {
 public:
  virtual ~ByteSource() = default;
  // The next chunk of (decompressed) data, valid until the next call; empty at the end. Errors
  // name the input and, for a corrupt or truncated zstd stream, the offset in the compressed
  // bytes.
  virtual Result<std::string_view> next() = 0;
  // Goes on from `offset` of the (decompressed) data: a file seeks, memory moves, and zstd and
  // brotli decode again from the start, dropping what comes before.
  virtual Result<void> seek(std::uint64_t offset) = 0;
  // Whether the data is decompressed, so that offsets in messages say which bytes they count.
  virtual bool compressed() const = 0;
  const std::string& name() const { return name_; }

 protected:
  explicit ByteSource(std::string name) : name_(std::move(name)) {}

 private:
  std::string name_;
};

// Opens `path`; a name ending in ".zst" (zstd) or ".br" (brotli) is decompressed as it is read.
// `name` (default: the path) is what errors call the data, and its ending decides: a cached
// download is a file named by a hash whose name for people is its URL.
Result<std::unique_ptr<ByteSource>> open_file(const std::string& path, std::string name = {});

// Bytes in memory, which must outlive the source. `name` names them in errors; a name ending in
// ".zst" means zstd, ".br" brotli.
std::unique_ptr<ByteSource> over_memory(std::string_view data, std::string name);

}  // namespace extdeps::json
