// An flock(2) lock on a file, held for a scope: shared while an entry of the HTTP cache is read,
// exclusive while one is replaced or the cache is cleaned. flock locks belong to the open file,
// so two Fetchers in one process exclude each other like two processes do.
#pragma once

#include <string>

#include "core/util/result.h"

namespace extdeps::fetch {

class FileLock {
 public:
  enum class Mode { shared, exclusive };

  // Opens (creating it when it can) and locks `path`, waiting for other holders. A read-only
  // cache whose lock file cannot be created is read without a lock: nobody can write it either.
  static Result<FileLock> acquire(const std::string& path, Mode mode);

  FileLock(FileLock&& other) noexcept;
  FileLock& operator=(FileLock&& other) noexcept;
  ~FileLock();
  bool held() const { return fd_ >= 0; }

 private:
  explicit FileLock(int fd) : fd_(fd) {}
  int fd_ = -1;
};

}  // namespace extdeps::fetch
