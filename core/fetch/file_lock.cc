#include "core/fetch/file_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

namespace extdeps::fetch {

Result<FileLock> FileLock::acquire(const std::string& path, Mode mode) {
  int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0 && (errno == EACCES || errno == EROFS)) {
    fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0 && mode == Mode::shared && (errno == ENOENT || errno == EACCES)) return FileLock(-1);
  }
  if (fd < 0) {
    std::string why = std::strerror(errno);
    Error e = environment_error("cannot open the lock file " + path + ": " + why);
    e.place = path;
    e.what = "cannot open the lock file (" + why + ")";
    return e;
  }
  int op = mode == Mode::shared ? LOCK_SH : LOCK_EX;
  while (::flock(fd, op) != 0) {
    if (errno == EINTR) continue;
    int e = errno;
    ::close(fd);
    Error err = environment_error("cannot lock " + path + ": " + std::strerror(e));
    err.place = path;
    err.what = std::string("cannot lock (") + std::strerror(e) + ")";
    return err;
  }
  return FileLock(fd);
}

FileLock::FileLock(FileLock&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}

FileLock& FileLock::operator=(FileLock&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = std::exchange(other.fd_, -1);
  }
  return *this;
}

// Closing the descriptor releases the lock.
FileLock::~FileLock() {
  if (fd_ >= 0) ::close(fd_);
}

}  // namespace extdeps::fetch
