// What the caches of loaded records are keyed on for a file: its size and its modification time
// to the nanosecond. Shared by the providers' identity() and the interpreter cache.
#pragma once

#include <sys/stat.h>

#include <optional>
#include <string>

namespace extdeps {

inline long long mtime_ns(const struct stat& st) {
  return static_cast<long long>(st.st_mtim.tv_sec) * 1000000000LL + st.st_mtim.tv_nsec;
}

// "SIZE MTIME_NS" of the file at `path`; nullopt when it cannot be stat'ed.
inline std::optional<std::string> file_stamp(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return std::nullopt;
  return std::to_string(st.st_size) + " " + std::to_string(mtime_ns(st));
}

}  // namespace extdeps
