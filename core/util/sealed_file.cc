#include "core/util/sealed_file.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>

#include "core/util/regular_file.h"

namespace fs = std::filesystem;

namespace extdeps::sealed {

namespace {

// The header, little-endian:
//   0  8  magic "extdeps\x1a"
//   8  4  header format (1)
//  12  4  kind ("solv")
//  16 32  the extdeps version that wrote it, NUL-padded
//  48  8  body length
//  56  4  CRC-32 of the body
//  60  4  CRC-32 of bytes 0..60
constexpr char kMagic[8] = {'e', 'x', 't', 'd', 'e', 'p', 's', '\x1a'};
constexpr std::uint32_t kFormat = 1;
constexpr std::size_t kVersionField = 32;

// A damaged or foreign cache file, as data: what is wrong, and what was expected where the text
// says it. No place: the caller knows the file.
Error unsealable(std::string what, std::string expected = {}) {
  return error_at(ExitCode::bad_input, "", std::move(what), std::move(expected));
}

// The same, where the one line keeps its own words: "header format 2, expected 1".
Error unsealable(std::string message, std::string what, std::string expected) {
  Error e = bad_input(std::move(message));
  e.what = std::move(what);
  e.expected = std::move(expected);
  return e;
}

// "cannot write PATH: REASON", with PATH as the place.
Error file_error(const std::string& action, const std::string& path, int err) {
  const std::string why = std::strerror(err);
  Error e = environment_error(action + " " + path + ": " + why);
  e.place = path;
  e.what = action + " (" + why + ")";
  return e;
}

void put_le(std::string& out, std::size_t at, std::uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) out[at + static_cast<std::size_t>(i)] = static_cast<char>((v >> (8 * i)) & 0xff);
}

std::uint64_t get_le(std::string_view in, std::size_t at, int bytes) {
  std::uint64_t v = 0;
  for (int i = bytes - 1; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(in[at + static_cast<std::size_t>(i)]);
  return v;
}

std::uint32_t crc(std::string_view bytes) {
  // zlib's crc32 takes a uInt length: feed it in pieces.
  uLong c = crc32(0L, Z_NULL, 0);
  while (!bytes.empty()) {
    auto n = static_cast<uInt>(std::min<std::size_t>(bytes.size(), 1u << 30));
    c = crc32(c, reinterpret_cast<const Bytef*>(bytes.data()), n);
    bytes.remove_prefix(n);
  }
  return static_cast<std::uint32_t>(c);
}

std::string version_field() {
  std::string v(EXTDEPS_VERSION);
  v.resize(kVersionField, '\0');
  return v;
}

std::string_view version_of(std::string_view header) {
  std::string_view v = header.substr(16, kVersionField);
  return v.substr(0, v.find('\0'));
}

bool header_ok(std::string_view bytes, std::string_view kind) {
  return bytes.size() >= kHeaderSize && bytes.substr(0, 8) == std::string_view(kMagic, 8) &&
         get_le(bytes, 60, 4) == crc(bytes.substr(0, 60)) && get_le(bytes, 8, 4) == kFormat &&
         bytes.substr(12, 4) == kind;
}

// Unique within the machine; the pid first, so remove_stale_temps can tell whose it is.
std::string temp_name(std::string_view base) {
  static std::atomic<unsigned> counter{0};
  return ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(counter++) + "-" + std::string(base);
}

bool process_alive(long pid) {
  if (pid <= 0) return false;
  if (pid == ::getpid()) return true;
  return ::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM;
}

}  // namespace

std::uint32_t crc32_of(std::string_view bytes) { return crc(bytes); }

std::string seal(std::string_view kind, std::string_view body) {
  std::string out(kHeaderSize, '\0');
  std::memcpy(out.data(), kMagic, 8);
  put_le(out, 8, kFormat, 4);
  std::string k(kind);
  k.resize(4, '\0');
  out.replace(12, 4, k);
  out.replace(16, kVersionField, version_field());
  put_le(out, 48, body.size(), 8);
  put_le(out, 56, crc(body), 4);
  put_le(out, 60, crc(std::string_view(out).substr(0, 60)), 4);
  out.append(body);
  return out;
}

Result<std::string_view> unseal_unchecked_body(std::string_view kind, std::string_view bytes) {
  if (bytes.empty()) return unsealable("empty file");
  if (bytes.size() < kHeaderSize || bytes.substr(0, 8) != std::string_view(kMagic, 8))
    return unsealable("not an extdeps cache file");
  if (get_le(bytes, 60, 4) != crc(bytes.substr(0, 60))) return unsealable("damaged header");
  if (get_le(bytes, 8, 4) != kFormat) {
    const std::string found = std::to_string(get_le(bytes, 8, 4));
    return unsealable("header format " + found + ", expected " + std::to_string(kFormat), "header format " + found,
                      "header format " + std::to_string(kFormat));
  }
  if (bytes.substr(12, 4) != kind) return unsealable("not a " + std::string(kind) + " cache file");
  if (version_of(bytes) != EXTDEPS_VERSION) {
    const std::string writer = "written by extdeps " + std::string(version_of(bytes));
    return unsealable(writer + ", this is " + EXTDEPS_VERSION, writer,
                      std::string("a file written by extdeps ") + EXTDEPS_VERSION);
  }
  std::uint64_t length = get_le(bytes, 48, 8);
  std::string_view body = bytes.substr(kHeaderSize);
  if (body.size() != length) {
    const std::string what = "cut short or overlong: the body is " + std::to_string(body.size()) + " bytes";
    return unsealable(what + ", the header says " + std::to_string(length), what,
                      std::to_string(length) + " bytes, as the header says");
  }
  return body;
}

Result<std::string_view> unseal(std::string_view kind, std::string_view bytes) {
  auto body = unseal_unchecked_body(kind, bytes);
  if (!body.ok()) return body;
  if (get_le(bytes, 56, 4) != crc(*body)) return unsealable("checksum mismatch");
  return body;
}

bool looks_sealed(const std::string& path, std::string_view kind) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) return false;
  std::string head(kHeaderSize, '\0');
  ssize_t n = ::read(fd, head.data(), head.size());
  ::close(fd);
  return n == static_cast<ssize_t>(kHeaderSize) && header_ok(head, kind);
}

std::optional<MappedFile> MappedFile::open(const std::string& path) {
  auto opened = open_regular_file(path, Links::follow);  // a FIFO is not waited on
  if (!opened) return std::nullopt;
  const int fd = *opened;
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return std::nullopt;
  }
  const auto size = static_cast<std::size_t>(st.st_size);
  if (size == 0) {
    ::close(fd);
    return MappedFile(nullptr, 0);
  }
  void* p = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
  ::close(fd);
  if (p == MAP_FAILED) return std::nullopt;
  return MappedFile(static_cast<const char*>(p), size);
}

MappedFile::MappedFile(MappedFile&& o) noexcept : data_(o.data_), size_(o.size_) {
  o.data_ = nullptr;
  o.size_ = 0;
}

MappedFile& MappedFile::operator=(MappedFile&& o) noexcept {
  if (this != &o) {
    if (data_) ::munmap(const_cast<char*>(data_), size_);
    data_ = o.data_;
    size_ = o.size_;
    o.data_ = nullptr;
    o.size_ = 0;
  }
  return *this;
}

MappedFile::~MappedFile() {
  if (data_) ::munmap(const_cast<char*>(data_), size_);
}

std::optional<std::string> read_all(const std::string& path) {
  auto opened = open_regular_file(path, Links::follow);  // a FIFO is not waited on
  if (!opened) return std::nullopt;
  const int fd = *opened;
  std::string out;
  char buf[1 << 16];
  for (;;) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      ::close(fd);
      return std::nullopt;
    }
    if (n == 0) break;
    out.append(buf, static_cast<std::size_t>(n));
  }
  ::close(fd);
  return out;
}

Result<void> write_atomically(const std::string& path, std::string_view kind, std::string_view body) {
  fs::path target(path);
  std::string tmp = (target.parent_path() / temp_name(target.filename().string())).string();
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) return file_error("cannot create", tmp, errno);
  std::string bytes = seal(kind, body);
  std::string_view left = bytes;
  int err = 0;
  while (!left.empty()) {
    ssize_t n = ::write(fd, left.data(), left.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      err = errno;
      break;
    }
    left.remove_prefix(static_cast<std::size_t>(n));
  }
  if (!err && ::fsync(fd) != 0) err = errno;
  if (::close(fd) != 0 && !err) err = errno;
  if (!err && std::rename(tmp.c_str(), path.c_str()) != 0) err = errno;
  if (err) {
    ::unlink(tmp.c_str());
    return file_error("cannot write", path, err);
  }
  return {};
}

bool is_temp_name(std::string_view file_name) { return file_name.substr(0, 5) == ".tmp-"; }

std::size_t remove_stale_temps(const std::string& dir) {
  std::size_t removed = 0;
  std::error_code ec;
  auto now = fs::file_time_type::clock::now();
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    std::string name = it->path().filename().string();
    if (!is_temp_name(name) || !it->is_regular_file(ec) || it->is_symlink(ec)) continue;
    long pid = 0;
    std::size_t i = 5;
    while (i < name.size() && name[i] >= '0' && name[i] <= '9' && pid < 100000000) pid = pid * 10 + (name[i++] - '0');
    bool named_pid = i > 5 && i < name.size() && name[i] == '-';
    auto t = it->last_write_time(ec);
    if (ec) continue;
    bool old = now - t > std::chrono::hours(1);
    // A living owner may still rename it in. (A cache folder shared between machines could have
    // a writer whose pid is not alive here; its rename then fails and it writes no cache file.)
    if (!old && (!named_pid || process_alive(pid))) continue;
    std::error_code rm;
    if (fs::remove(it->path(), rm)) ++removed;
  }
  return removed;
}

}  // namespace extdeps::sealed
