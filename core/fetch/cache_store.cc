#include "core/fetch/cache_store.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "core/fetch/file_lock.h"
#include "core/json/document.h"
#include "core/util/limits.h"
#include "core/util/text.h"

namespace fs = std::filesystem;

namespace extdeps::fetch {

namespace {

// 2: header values escaped (escape_bytes); a file of format 1 reads as absent.
constexpr int kFormat = 2;

std::string errno_text(int e) { return std::strerror(e); }

// "cannot write PATH: REASON", the one line as before, with PATH as the place and "cannot write
// (REASON)" as what went wrong.
Error file_error(const std::string& action, const std::string& path, const std::string& why = {}) {
  Error e = environment_error(action + " " + path + (why.empty() ? "" : ": " + why));
  e.place = path;
  e.what = why.empty() ? action : action + " (" + why + ")";
  return e;
}

// Unique within the machine: the pid, and a counter for the transfers of one process. The pid
// comes first, as in sealed::write_atomically's names, so sealed::remove_stale_temps can tell
// whether the writer still runs.
std::string temp_prefix() {
  static std::atomic<unsigned> counter{0};
  return ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(counter++) + "-";
}

// Header values are bytes, not text: a server may send an ETag with byte 0xFF, which a JSON
// string (UTF-8) cannot hold. Every byte outside printable ASCII, and '%', is kept as %XX.
std::string escape_bytes(std::string_view in) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (char c : in) {
    auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u > 0x7e || u == '%') {
      out += '%';
      out += kHex[u >> 4];
      out += kHex[u & 15];
    } else {
      out += c;
    }
  }
  return out;
}

std::optional<std::string> unescape_bytes(std::string_view in) {
  auto hex = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  std::string out;
  for (std::size_t i = 0; i < in.size(); ++i) {
    if (in[i] != '%') {
      out += in[i];
      continue;
    }
    if (i + 2 >= in.size()) return std::nullopt;
    int hi = hex(in[i + 1]), lo = hex(in[i + 2]);
    if (hi < 0 || lo < 0) return std::nullopt;
    out += static_cast<char>(hi * 16 + lo);
    i += 2;
  }
  return out;
}

nlohmann::json to_json(const EntryMeta& m) {
  nlohmann::json j = {{"format", kFormat},
                      {"url", escape_bytes(m.url)},
                      {"status", m.status},
                      {"etag", escape_bytes(m.etag)},
                      {"last_modified", escape_bytes(m.last_modified)},
                      {"age", m.age_s},
                      {"fetched_at", m.fetched_at},
                      {"size", m.size},
                      {"content_type", escape_bytes(m.content_type)}};
  j["lifetime"] = m.lifetime_s ? nlohmann::json(*m.lifetime_s) : nlohmann::json(nullptr);
  return j;
}

// Fields of the types this store writes, else nothing: a damaged file must read as absent, never
// throw (nlohmann's value() does on a field of another type) nor convert a float such as 1e40
// to an integer (undefined behaviour). Both were found by the http_cache_meta fuzz harness.
std::optional<std::int64_t> int_field(const nlohmann::json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end() || !it->is_number_integer()) return std::nullopt;
  if (it->is_number_unsigned() && it->get<std::uint64_t>() > static_cast<std::uint64_t>(INT64_MAX)) return std::nullopt;
  return it->get<std::int64_t>();
}

// A header value (escaped bytes); "" when absent.
std::optional<std::string> bytes_field(const nlohmann::json& j, const char* key, bool required = false) {
  auto it = j.find(key);
  if (it == j.end()) return required ? std::nullopt : std::optional<std::string>("");
  if (!it->is_string()) return std::nullopt;
  return unescape_bytes(it->get_ref<const std::string&>());
}

std::optional<EntryMeta> from_json(const nlohmann::json& j) {
  if (!j.is_object() || int_field(j, "format") != kFormat) return std::nullopt;
  auto url = bytes_field(j, "url", true);
  auto etag = bytes_field(j, "etag"), last_modified = bytes_field(j, "last_modified");
  auto content_type = bytes_field(j, "content_type");
  auto status = int_field(j, "status"), fetched_at = int_field(j, "fetched_at"), size = int_field(j, "size");
  if (!url || !etag || !last_modified || !content_type || !status || !fetched_at || !size || *size < 0)
    return std::nullopt;
  EntryMeta m;
  m.url = std::move(*url);
  m.status = *status;
  m.etag = std::move(*etag);
  m.last_modified = std::move(*last_modified);
  m.content_type = std::move(*content_type);
  if (auto it = j.find("lifetime"); it != j.end() && !it->is_null()) {
    auto lifetime = int_field(j, "lifetime");
    if (!lifetime) return std::nullopt;
    m.lifetime_s = *lifetime;
  }
  if (j.contains("age")) {
    auto age = int_field(j, "age");
    if (!age) return std::nullopt;
    m.age_s = *age;
  }
  m.fetched_at = *fetched_at;
  m.size = static_cast<std::uint64_t>(*size);
  return m;
}

}  // namespace

namespace meta_file {

std::optional<EntryMeta> parse(std::string_view text) { return from_json(json::parse_or_discarded(text)); }

// A 304 changes only the time of most entries. The time's digits sit right-aligned in a slot of
// this width after the key, so that refresh_from writes the new time over the old one in place
// (one small write under the lock) rather than a new file renamed over the old: making and
// renaming a file for each of a warm run's revalidated pages was a fifth of its time. A file
// without the slot (written by an older extdeps) is rewritten whole, with it.
constexpr std::string_view kTimeKey = "\n \"fetched_at\": ";
constexpr std::size_t kTimeSlot = 20;  // an int64's 19 digits, and a space

std::string time_text(std::int64_t t) {
  char buf[kTimeSlot + 1];
  std::snprintf(buf, sizeof buf, "%*lld", static_cast<int>(kTimeSlot), static_cast<long long>(t));
  return buf;
}

std::string text(const EntryMeta& meta) {
  std::string out = extdeps::json::dump(to_json(meta), 1) + "\n";
  auto at = out.find(kTimeKey);
  if (at != std::string::npos && meta.fetched_at >= 0) {
    std::size_t start = at + kTimeKey.size(), end = out.find(',', start);
    if (end != std::string::npos && end - start < kTimeSlot) out.insert(start, kTimeSlot - (end - start), ' ');
  }
  return out;
}

std::optional<std::size_t> time_slot(std::string_view text) {
  auto at = text.find(kTimeKey);
  if (at == std::string_view::npos) return std::nullopt;
  std::size_t start = at + kTimeKey.size();
  if (text.size() <= start + kTimeSlot || text[start + kTimeSlot] != ',') return std::nullopt;
  auto slot = text.substr(start, kTimeSlot);
  auto digits = slot.find_first_not_of(' ');
  if (digits == std::string_view::npos || slot.substr(digits).find_first_not_of("0123456789") != std::string_view::npos)
    return std::nullopt;
  return start;
}

std::optional<std::size_t> slot_for(std::string_view text, const EntryMeta& after) {
  auto slot = time_slot(text);
  if (!slot || after.fetched_at < 0) return std::nullopt;
  // Read back before it is written: a file of another shape (a key twice, a nested one) that
  // happens to have a slot is rewritten whole instead.
  std::string edited(text);
  edited.replace(*slot, kTimeSlot, time_text(after.fetched_at));
  auto read = parse(edited);
  if (!read || read->fetched_at != after.fetched_at || read->url != after.url || read->status != after.status ||
      read->etag != after.etag || read->last_modified != after.last_modified ||
      read->content_type != after.content_type || read->lifetime_s != after.lifetime_s || read->age_s != after.age_s ||
      read->size != after.size)
    return std::nullopt;
  return slot;
}

}  // namespace meta_file

namespace {

// The whole of a small file read through fd; nullopt when it cannot be read or passes 1 MiB (a
// metadata file extdeps wrote is a few hundred bytes).
std::optional<std::string> read_all(int fd) {
  std::string text;
  char buf[4096];
  for (;;) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return std::nullopt;
    if (n == 0) return text;
    text.append(buf, static_cast<std::size_t>(n));
    if (text.size() > limits::kMaxCacheMetaFile) return std::nullopt;
  }
}

// A cache file opened only if it is a regular file and not a link (a FIFO put there is never
// waited on); -1 otherwise. Blocking again once checked.
int open_cache_file(const std::string& path, int flags) {
  int fd = ::open(path.c_str(), flags | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW);
  if (fd < 0) return -1;
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return -1;
  }
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  return fd;
}

std::optional<EntryMeta> read_meta_file(const std::string& path) {
  int fd = open_cache_file(path, O_RDONLY);
  if (fd < 0) return std::nullopt;
  auto text = read_all(fd);
  ::close(fd);
  if (!text) return std::nullopt;
  return meta_file::parse(*text);
}

// Whether after differs from before only in its time and in the age it came with.
bool only_time_differs(const EntryMeta& before, const EntryMeta& after) {
  return before.url == after.url && before.status == after.status && before.etag == after.etag &&
         before.last_modified == after.last_modified && before.content_type == after.content_type &&
         before.lifetime_s == after.lifetime_s && before.age_s == after.age_s && before.size == after.size;
}

bool body_matches(const std::string& path, const EntryMeta& m) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && static_cast<std::uint64_t>(st.st_size) == m.size;
}

Result<void> rename_file(const std::string& from, const std::string& to) {
  if (std::rename(from.c_str(), to.c_str()) == 0) return {};
  int e = errno;
  if (e == ENOENT) {
    Error err = environment_error("the temporary file " + from +
                                  " vanished before it could be renamed (was the cache cleaned meanwhile?)");
    err.place = from;
    err.what = "the temporary file vanished before it could be renamed";
    err.hint = "was the cache cleaned meanwhile?";
    return err;
  }
  Error err = environment_error("cannot rename " + from + " to " + to + ": " + errno_text(e));
  err.place = from;
  err.what = "cannot rename to " + to + " (" + errno_text(e) + ")";
  return err;
}

Result<void> unlink_if_there(const std::string& path) {
  if (::unlink(path.c_str()) == 0 || errno == ENOENT) return {};
  return file_error("cannot remove", path, errno_text(errno));
}

}  // namespace

std::int64_t EntryMeta::age_at(std::int64_t now_s) const {
  return std::max<std::int64_t>(0, now_s - fetched_at) + age_s;
}

bool EntryMeta::fresh(std::optional<long> max_age_s, std::int64_t now_s) const {
  auto lifetime = max_age_s ? max_age_s : lifetime_s;
  return lifetime && age_at(now_s) < *lifetime;
}

TempFile TempFile::deferred(std::string path) {
  TempFile t;
  t.path_ = std::move(path);
  return t;
}

TempFile::TempFile(TempFile&& other) noexcept
    : path_(std::exchange(other.path_, {})),
      fd_(std::exchange(other.fd_, -1)),
      written_(other.written_),
      made_(std::exchange(other.made_, false)) {}

TempFile& TempFile::operator=(TempFile&& other) noexcept {
  if (this != &other) {
    discard();
    path_ = std::exchange(other.path_, {});
    fd_ = std::exchange(other.fd_, -1);
    written_ = other.written_;
    made_ = std::exchange(other.made_, false);
  }
  return *this;
}

TempFile::~TempFile() { discard(); }

void TempFile::discard() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  if (made_ && !path_.empty()) ::unlink(path_.c_str());
  path_.clear();
  made_ = false;
}

bool TempFile::make() {
  if (made_) return true;
  fd_ = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd_ < 0) return false;
  made_ = true;
  return true;
}

bool TempFile::write(const char* data, std::size_t size) {
  if (!make()) return false;
  while (size > 0) {
    ssize_t n = ::write(fd_, data, size);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    data += n;
    size -= static_cast<std::size_t>(n);
    written_ += static_cast<std::uint64_t>(n);
  }
  return true;
}

Result<void> TempFile::finish() {
  if (!made_ && !path_.empty() && !make()) return file_error("cannot create", path_, errno_text(errno));
  if (fd_ < 0) return {};
  // No fsync: a body that a power cut leaves shorter than its metadata says reads as absent.
  int rc = ::close(fd_);
  fd_ = -1;
  if (rc != 0) return file_error("cannot write", path_, errno_text(errno));
  return {};
}

// FNV-1a: the metadata keeps the URL, so a collision only costs a download.
std::string CacheStore::key(std::string_view url) { return fnv1a_hex(url); }

std::string CacheStore::body_path(std::string_view url) const { return dir_ + "/" + key(url) + ".body"; }
std::string CacheStore::meta_path(std::string_view url) const { return dir_ + "/" + key(url) + ".json"; }

bool CacheStore::is_temp_name(std::string_view name) { return name.substr(0, 5) == ".tmp-"; }

bool CacheStore::is_key_name(std::string_view name, std::string_view suffix) {
  return name.size() == 16 + suffix.size() && name.ends_with(suffix) &&
         name.substr(0, 16).find_first_not_of("0123456789abcdef") == std::string_view::npos;
}

Result<void> CacheStore::prepare() const {
  std::error_code ec;
  fs::create_directories(dir_, ec);
  if (ec) return file_error("cannot create the cache folder", dir_, ec.message());
  return {};
}

CacheStore::SharedReads CacheStore::hold_for_reads() const {
  auto lock = FileLock::acquire(lock_path(), FileLock::Mode::shared);
  if (!lock.ok()) return {};
  auto held = std::make_shared<FileLock>(std::move(*lock));
  held_ = held;
  return {held};
}

std::optional<EntryMeta> CacheStore::read(std::string_view url) const {
  std::optional<FileLock> lock;
  if (held_.expired()) {
    std::error_code ec;
    if (!fs::exists(meta_path(url), ec)) return std::nullopt;
    auto acquired = FileLock::acquire(lock_path(), FileLock::Mode::shared);
    if (!acquired.ok()) return std::nullopt;
    lock.emplace(std::move(*acquired));
  }
  auto meta = read_meta_file(meta_path(url));
  if (!meta || meta->url != url || !body_matches(body_path(url), *meta)) return std::nullopt;
  return meta;
}

TempFile CacheStore::create_temp(std::string_view url) const {
  return TempFile::deferred(dir_ + "/" + temp_prefix() + key(url));
}

Result<std::string> CacheStore::write_temp_meta(const EntryMeta& meta) const {
  // Made before the file exists, and never throwing: nothing is left behind on the way out.
  std::string text = meta_file::text(meta);
  std::string path = dir_ + "/" + temp_prefix() + key(meta.url) + ".json";
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out) {
    ::unlink(path.c_str());
    return file_error("cannot write", path);
  }
  return path;
}

Result<void> CacheStore::commit(const EntryMeta& meta, TempFile& body) const {
  if (auto r = body.finish(); !r.ok()) return r;
  auto meta_tmp = write_temp_meta(meta);
  if (!meta_tmp.ok()) return meta_tmp.error();
  TempFile meta_file(*meta_tmp, -1);  // removed unless renamed in
  auto lock = FileLock::acquire(lock_path(), FileLock::Mode::exclusive);
  if (!lock.ok()) return lock.error();
  // The old metadata goes first: between the two renames the folder holds a body without
  // metadata, which reads as absent, never a body paired with another body's metadata.
  if (auto r = unlink_if_there(meta_path(meta.url)); !r.ok()) return r;
  if (auto r = rename_file(body.path(), body_path(meta.url)); !r.ok()) return r;
  body.released();
  if (auto r = rename_file(meta_file.path(), meta_path(meta.url)); !r.ok()) return r;
  meta_file.released();
  return {};
}

Result<void> CacheStore::commit_unstored(std::string_view url, TempFile& body) const {
  if (auto r = body.finish(); !r.ok()) return r;
  auto lock = FileLock::acquire(lock_path(), FileLock::Mode::exclusive);
  if (!lock.ok()) return lock.error();
  if (auto r = unlink_if_there(meta_path(url)); !r.ok()) return r;
  if (auto r = rename_file(body.path(), body_path(url)); !r.ok()) return r;
  body.released();
  return {};
}

Result<bool> CacheStore::refresh_from(const EntryMeta& before, const EntryMeta& after) const {
  bool in_place = only_time_differs(before, after) && after.fetched_at >= 0;
  auto lock = FileLock::acquire(lock_path(), FileLock::Mode::exclusive);
  if (!lock.ok()) return lock.error();
  const std::string path = meta_path(before.url);
  int fd = open_cache_file(path, in_place ? O_RDWR : O_RDONLY);
  if (fd < 0) return false;
  auto text = read_all(fd);
  auto current = text ? meta_file::parse(*text) : std::nullopt;
  if (!current || current->url != before.url || current->size != before.size || current->etag != before.etag ||
      current->last_modified != before.last_modified || !body_matches(body_path(before.url), before)) {
    ::close(fd);
    return false;
  }
  if (auto slot = in_place ? meta_file::slot_for(*text, after) : std::nullopt) {
    std::string digits = meta_file::time_text(after.fetched_at);
    ssize_t n = ::pwrite(fd, digits.data(), digits.size(), static_cast<off_t>(*slot));
    int e = errno;
    int closed = ::close(fd);
    if (n != static_cast<ssize_t>(digits.size()) || closed != 0)
      return file_error("cannot write", path, n < 0 || closed != 0 ? errno_text(n < 0 ? e : errno) : "short write");
    return true;
  }
  ::close(fd);
  auto meta_tmp = write_temp_meta(after);
  if (!meta_tmp.ok()) return meta_tmp.error();
  TempFile meta_file(*meta_tmp, -1);
  if (auto r = rename_file(meta_file.path(), path); !r.ok()) return r.error();
  meta_file.released();
  return true;
}

Result<void> CacheStore::remove(std::string_view url) const {
  std::error_code ec;
  if (!fs::exists(dir_, ec)) return {};
  auto lock = FileLock::acquire(lock_path(), FileLock::Mode::exclusive);
  if (!lock.ok()) return lock.error();
  if (auto r = unlink_if_there(meta_path(url)); !r.ok()) return r;
  return unlink_if_there(body_path(url));
}

CacheStore::Listing CacheStore::list() const {
  Listing out;
  std::error_code ec;
  std::vector<std::string> metas, bodies;
  for (auto it = fs::directory_iterator(dir_, ec); !ec && it != fs::directory_iterator(); it.increment(ec)) {
    std::string name = it->path().filename().string();
    if (name == ".lock") continue;
    // Only regular files with the names this store gives are its own; a symlink or a file of
    // another name is someone else's, listed but never removed.
    std::error_code type_ec;
    if (it->is_symlink(type_ec) || !it->is_regular_file(type_ec)) {
      out.foreign.push_back(it->path().string());
    } else if (is_temp_name(name)) {
      out.temps.push_back(it->path().string());
    } else if (is_key_name(name, ".json")) {
      metas.push_back(name.substr(0, 16));
    } else if (is_key_name(name, ".body")) {
      bodies.push_back(name.substr(0, 16));
    } else {
      out.foreign.push_back(it->path().string());
    }
  }
  std::sort(metas.begin(), metas.end());
  std::sort(bodies.begin(), bodies.end());
  for (const auto& k : metas) {
    std::string meta_path = dir_ + "/" + k + ".json", body = dir_ + "/" + k + ".body";
    auto meta = read_meta_file(meta_path);
    if (meta && key(meta->url) == k && body_matches(body, *meta)) {
      out.entries.push_back({*meta, body, meta_path});
    } else {
      out.orphans.push_back(meta_path);
      if (std::binary_search(bodies.begin(), bodies.end(), k)) out.orphans.push_back(body);
    }
  }
  for (const auto& k : bodies)
    if (!std::binary_search(metas.begin(), metas.end(), k)) out.orphans.push_back(dir_ + "/" + k + ".body");
  std::sort(out.entries.begin(), out.entries.end(),
            [](const auto& a, const auto& b) { return a.meta.url < b.meta.url; });
  return out;
}

}  // namespace extdeps::fetch
