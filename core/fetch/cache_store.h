// The HTTP cache on disk. Per URL a body file (<key>.body) and its metadata (<key>.json), the key
// a hash of the URL. A body is downloaded into a temporary file in the same folder and renamed
// into place; the metadata is renamed in last, so a crash or a failed download leaves either the
// old pair or a body without metadata, which reads as absent. Readers take the shared lock of
// <dir>/.lock, replacing or removing an entry takes it exclusively, briefly: never during a
// download.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/fetch/file_lock.h"
#include "core/util/result.h"

namespace extdeps::fetch {

struct EntryMeta {
  std::string url;
  long status = 200;  // 200 (a body), or 404/410: a remembered "not found" with an empty body
  std::string etag;
  std::string last_modified;
  std::string content_type;
  std::optional<long> lifetime_s;  // fresh this long after it was sent (Cache-Control, Expires)
  long age_s = 0;                  // how old the answer already was when it came (Age)
  std::int64_t fetched_at = 0;     // seconds since the epoch, Context clock
  std::uint64_t size = 0;          // of the body file; a body of another size reads as absent

  bool found() const { return status < 400; }
  bool has_validator() const { return !etag.empty() || !last_modified.empty(); }
  // Its age now, counting the Age it came with.
  std::int64_t age_at(std::int64_t now_s) const;
  // max_age_s (the request's) replaces the server's lifetime.
  bool fresh(std::optional<long> max_age_s, std::int64_t now_s) const;
};

// An entry's metadata file as text and back. The fetch time sits right-aligned in a slot of fixed
// width, so that a 304 that changes only the time writes it in place (CacheStore::refresh_from).
namespace meta_file {
std::string text(const EntryMeta& meta);
// nullopt for text that is not an entry's metadata.
std::optional<EntryMeta> parse(std::string_view text);
// Where the time's slot starts in `text`; nullopt when it has none (an older extdeps wrote it).
std::optional<std::size_t> time_slot(std::string_view text);
// What goes in the slot for time t (t >= 0).
std::string time_text(std::int64_t t);
// The slot of `text` where time_text(after.fetched_at) makes a file that reads as exactly
// `after`; nullopt when there is none (the file is then rewritten whole).
std::optional<std::size_t> slot_for(std::string_view text, const EntryMeta& after);
}  // namespace meta_file

// A file written by one download; removed on destruction unless it was renamed into place.
// One made by deferred() exists only from its first write (or finish(), empty): a conditional
// request answered 304, most of a warm run's, then makes and removes no file at all.
class TempFile {
 public:
  TempFile() = default;
  TempFile(std::string path, int fd) : path_(std::move(path)), fd_(fd), made_(true) {}
  static TempFile deferred(std::string path);
  TempFile(TempFile&& other) noexcept;
  TempFile& operator=(TempFile&& other) noexcept;
  ~TempFile();

  const std::string& path() const { return path_; }
  bool valid() const { return !path_.empty(); }
  // false with errno set when the disk refuses (or the file cannot be made).
  bool write(const char* data, std::size_t size);
  std::uint64_t written() const { return written_; }
  // Closes the descriptor (making the file first, empty, when deferred and never written); the
  // file stays until destruction or released().
  Result<void> finish();
  void released() { path_.clear(); }

 private:
  void discard();
  bool make();
  std::string path_;
  int fd_ = -1;
  std::uint64_t written_ = 0;
  bool made_ = false;  // the file exists (ours to remove)
};

class CacheStore {
 public:
  explicit CacheStore(std::string dir) : dir_(std::move(dir)) {}
  const std::string& dir() const { return dir_; }

  static std::string key(std::string_view url);
  std::string body_path(std::string_view url) const;
  std::string meta_path(std::string_view url) const;
  std::string lock_path() const { return dir_ + "/.lock"; }

  // Creates the folder.
  Result<void> prepare() const;
  // url's entry, read under the shared lock; nullopt when absent, unreadable, for another URL
  // (a hash collision) or when its body does not match the metadata.
  std::optional<EntryMeta> read(std::string_view url) const;
  // Many read()s under one shared lock, taken here and let go when the returned holder goes: a
  // fetch_all looks up 75 entries, and opening and locking the lock file for each was most of
  // a warm pypi run's system time. Nothing may write this cache (from this process either:
  // flock would wait on ourselves) while it is held.
  struct SharedReads {
    std::shared_ptr<FileLock> lock;
  };
  SharedReads hold_for_reads() const;
  // A temporary file in the cache folder for a download of url, made on its first write.
  TempFile create_temp(std::string_view url) const;
  // Makes a finished download url's entry.
  Result<void> commit(const EntryMeta& meta, TempFile& body) const;
  // A body the server said not to store (no-store): it becomes url's body file for the caller to
  // read, without metadata, so it is never served again; the old entry is gone.
  Result<void> commit_unstored(std::string_view url, TempFile& body) const;
  // After a 304: the entry read as `before` gets the new validators, lifetime and time of
  // `after`. false when it was removed or replaced by another process meanwhile.
  Result<bool> refresh_from(const EntryMeta& before, const EntryMeta& after) const;
  Result<void> remove(std::string_view url) const;

  // What the folder holds, for `extdeps cache info` and `clean` (which lock it themselves).
  struct Listing {
    struct Entry {
      EntryMeta meta;
      std::string body_path, meta_path;
    };
    std::vector<Entry> entries;
    std::vector<std::string> orphans;  // bodies or metadata without their pair (or damaged)
    std::vector<std::string> temps;    // downloads in progress, or left by interrupted runs
    std::vector<std::string> foreign;  // not ours: other names, symlinks, folders; never removed
  };
  Listing list() const;
  static bool is_temp_name(std::string_view file_name);
  // "<16 hex digits><suffix>": the name of an entry's file.
  static bool is_key_name(std::string_view file_name, std::string_view suffix);

 private:
  Result<std::string> write_temp_meta(const EntryMeta& meta) const;
  std::string dir_;
  mutable std::weak_ptr<FileLock> held_;  // the shared lock of hold_for_reads, while it lasts
};

}  // namespace extdeps::fetch
