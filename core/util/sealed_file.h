// Binary cache files that check themselves. A damaged cache file (cut short by a full disk,
// flipped by bad memory, replaced by another tool's file) must never reach a reader that trusts
// it: libsolv's repo_add_solv crashes or reads out of bounds on bytes it did not write. So every
// binary cache file extdeps writes is "sealed": a 64-byte header (magic, header format, what the
// body is, the extdeps version that wrote it, the body's length and CRC-32, the header's own
// CRC-32) before the body, and is checked in memory before anything parses the body. Writes go
// to a `.tmp-<pid>-...` file in the same folder and are renamed in, so readers and concurrent
// writers see one whole file or none; temporary files a killed run left behind are removed by
// remove_stale_temps.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/util/result.h"

namespace extdeps::sealed {

inline constexpr std::size_t kHeaderSize = 64;

// zlib's CRC-32 of `bytes`: what a seal checks, for bodies that check their own parts too.
std::uint32_t crc32_of(std::string_view bytes);

// `kind`: four bytes naming what the body is ("solv"); a file of another kind is refused.
std::string seal(std::string_view kind, std::string_view body);

// The body of a sealed file of `kind` written by this extdeps version; otherwise a bad_input
// error saying what is wrong, without a path ("checksum mismatch", "cut short: ...").
Result<std::string_view> unseal(std::string_view kind, std::string_view bytes);

// The same checks but the body's CRC: for a body whose reader checks the parts it reads, each
// against a checksum of its own (the table cache, table_cache.h), so that a run that reads a
// little of a large file does not pay for checking all of it.
Result<std::string_view> unseal_unchecked_body(std::string_view kind, std::string_view bytes);

// A file mapped read-only into memory (mmap): its pages are read as they are touched, and no copy
// is made. Cache files are replaced by rename, never rewritten in place, so the mapping keeps the
// file it opened even when a writer renames a new one over it.
class MappedFile {
 public:
  // nullopt when the file cannot be opened or mapped. An empty file maps to an empty view.
  static std::optional<MappedFile> open(const std::string& path);
  MappedFile(MappedFile&& o) noexcept;
  MappedFile& operator=(MappedFile&& o) noexcept;
  ~MappedFile();
  std::string_view bytes() const { return {data_, size_}; }

 private:
  MappedFile(const char* data, std::size_t size) : data_(data), size_(size) {}
  const char* data_ = nullptr;
  std::size_t size_ = 0;
};

// Whether the first bytes of `path` are a sealed header of `kind` (any version, body unchecked):
// enough to know extdeps wrote it, for `extdeps cache clean`. Does not follow a symlink.
bool looks_sealed(const std::string& path, std::string_view kind);

// The whole file; nullopt when it cannot be read.
std::optional<std::string> read_all(const std::string& path);

// Writes seal(kind, body) to `path` atomically: a temporary file in the same folder, flushed to
// disk, renamed over `path`.
Result<void> write_atomically(const std::string& path, std::string_view kind, std::string_view body);

// A name write_atomically (and the download cache) gives its temporary files.
bool is_temp_name(std::string_view file_name);

// Removes the temporary files in `dir` that no running writer owns: the process named in the
// name is gone, or the file is older than an hour (a writer on another machine sharing the
// cache). Returns how many were removed.
std::size_t remove_stale_temps(const std::string& dir);

}  // namespace extdeps::sealed
