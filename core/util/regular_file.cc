#include "core/util/regular_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>
#include <string_view>

namespace extdeps {

namespace {

const char* kind_of(mode_t mode) {
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISLNK(mode)) return "a symbolic link";
  return "not a regular file";
}

// Opened without blocking and checked: the descriptor, or the error (the errno of open, or 0
// and the kind of file it is).
struct Opened {
  int fd = -1;
  int open_errno = 0;
  std::string kind;
  struct stat st {};
};

Opened open_checked(const std::string& path, Links links) {
  Opened o;
  int flags = O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY;
  if (links == Links::refuse) flags |= O_NOFOLLOW;
  o.fd = ::open(path.c_str(), flags);
  if (o.fd < 0) {
    o.open_errno = errno;
    return o;
  }
  if (::fstat(o.fd, &o.st) != 0 || !S_ISREG(o.st.st_mode)) {
    o.kind = S_ISREG(o.st.st_mode) ? "not a regular file" : kind_of(o.st.st_mode);
    ::close(o.fd);
    o.fd = -1;
    return o;
  }
  ::fcntl(o.fd, F_SETFL, ::fcntl(o.fd, F_GETFL) & ~O_NONBLOCK);
  return o;
}

// The error for a file open_checked() did not open: `before` and `after` go around strerror's text.
Error refused(const Opened& o, const std::string& path, Links links, ExitCode code, std::string_view before,
              std::string_view after) {
  if (o.open_errno == ELOOP && links == Links::refuse)
    return error_at(code, path, "is a symbolic link, which is not followed here", "a regular file");
  if (o.open_errno) return error_at(code, path, std::string(before) + std::strerror(o.open_errno) + std::string(after));
  return error_at(code, path, "is " + o.kind + ", not a regular file");
}

}  // namespace

std::string read_small_file_or_empty(const std::string& path) {
  auto text = read_regular_file(path, std::size_t{1} << 20, Links::follow);
  return text.ok() ? std::move(*text) : std::string();
}

Result<int> open_regular_file(const std::string& path, Links links, ExitCode code) {
  Opened o = open_checked(path, links);
  if (o.fd < 0) return refused(o, path, links, code, "cannot open: ", "");
  return o.fd;
}

namespace {

// The rest of read_regular_file, once `o` is open.
Result<std::string> read_opened(const Opened& o, const std::string& path, std::size_t max_bytes, ExitCode code) {
  const int fd = o.fd;
  const struct stat& st = o.st;
  if (static_cast<unsigned long long>(st.st_size) > max_bytes) {
    ::close(fd);
    return error_at(code, path, "is larger than " + std::to_string(max_bytes) + " bytes (docs/limits.md)");
  }
  std::string text;
  text.resize(static_cast<std::size_t>(st.st_size));
  std::size_t have = 0;
  while (true) {
    // Up to the size fstat gave, into the string; past it (the file grew, or that was its end),
    // into a small buffer first, so that reading a whole file zeroes no room it does not use.
    char more[4096];
    const bool at_size = have == text.size();
    ssize_t n = at_size ? ::read(fd, more, sizeof more) : ::read(fd, text.data() + have, text.size() - have);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int e = errno;
      ::close(fd);
      return error_at(code, path, std::string("cannot be read (") + std::strerror(e) + ")");
    }
    if (n == 0) break;
    if (at_size) {
      if (text.size() + static_cast<std::size_t>(n) > max_bytes) {
        ::close(fd);
        return error_at(code, path, "is larger than " + std::to_string(max_bytes) + " bytes (docs/limits.md)");
      }
      text.append(more, static_cast<std::size_t>(n));
    }
    have += static_cast<std::size_t>(n);
  }
  ::close(fd);
  text.resize(have);
  return text;
}

}  // namespace

Result<std::string> read_regular_file(const std::string& path, std::size_t max_bytes, Links links, ExitCode code) {
  Opened o = open_checked(path, links);
  if (o.fd < 0) return refused(o, path, links, code, "cannot be read (", ")");
  return read_opened(o, path, max_bytes, code);
}

Result<std::optional<std::string>> read_regular_file_if_present(const std::string& path, std::size_t max_bytes,
                                                                Links links, ExitCode code) {
  Opened o = open_checked(path, links);
  if (o.fd < 0 && (o.open_errno == ENOENT || o.open_errno == ENOTDIR)) return std::optional<std::string>{};
  if (o.fd < 0) return refused(o, path, links, code, "cannot be read (", ")");
  auto text = read_opened(o, path, max_bytes, code);
  if (!text) return text.error();
  return std::optional<std::string>{std::move(*text)};
}

}  // namespace extdeps
