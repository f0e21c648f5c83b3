#include "core/fetch/cache_store.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <thread>

#include "core/fetch/file_lock.h"
#include "tests/test_support.h"

namespace fs = std::filesystem;

namespace extdeps::fetch {
namespace {

using namespace std::chrono_literals;

EntryMeta meta_for(const std::string& url, std::uint64_t size) {
  EntryMeta m;
  m.url = url;
  m.etag = "\"e\"";
  m.lifetime_s = 60;
  m.fetched_at = 1000;
  m.size = size;
  return m;
}

void put(const CacheStore& store, const std::string& url, const std::string& body) {
  auto tmp = store.create_temp(url);
  if (!body.empty()) ASSERT_TRUE(tmp.write(body.data(), body.size()));
  auto committed = store.commit(meta_for(url, body.size()), tmp);
  ASSERT_TRUE(committed.ok()) << committed.error().message;
}

TEST(FetchCacheStoreTest, CommitThenRead) {
  CacheStore store(test::temp_dir() + "/http");
  ASSERT_TRUE(store.prepare().ok());
  put(store, "https://example.org/a", "alpha");
  auto m = store.read("https://example.org/a");
  ASSERT_TRUE(m);
  EXPECT_EQ(m->etag, "\"e\"");
  EXPECT_EQ(m->lifetime_s, 60);
  EXPECT_EQ(m->size, 5u);
  EXPECT_EQ(test::read_file(store.body_path("https://example.org/a")), "alpha");
  EXPECT_FALSE(store.read("https://example.org/b"));
  // Replaced whole.
  put(store, "https://example.org/a", "beta!!");
  EXPECT_EQ(store.read("https://example.org/a")->size, 6u);
  EXPECT_EQ(test::read_file(store.body_path("https://example.org/a")), "beta!!");
  auto listing = store.list();
  EXPECT_EQ(listing.entries.size(), 1u);
  EXPECT_TRUE(listing.temps.empty());
  EXPECT_TRUE(listing.orphans.empty());
}

TEST(FetchCacheStoreTest, FreshnessCountsTheAgeItCameWith) {
  EntryMeta m = meta_for("u", 0);
  m.age_s = 20;
  EXPECT_TRUE(m.fresh(std::nullopt, 1039));
  EXPECT_FALSE(m.fresh(std::nullopt, 1040));
  EXPECT_TRUE(m.fresh(100, 1050));
  EXPECT_FALSE(m.fresh(0, 1000));
  m.lifetime_s.reset();
  EXPECT_FALSE(m.fresh(std::nullopt, 1000));
}

TEST(FetchCacheStoreTest, DamagedOrForeignMetadataReadsAsAbsent) {
  CacheStore store(test::temp_dir() + "/http");
  ASSERT_TRUE(store.prepare().ok());
  const std::string url = "https://example.org/a";
  put(store, url, "alpha");
  std::ofstream(store.meta_path(url)) << "{not json";
  EXPECT_FALSE(store.read(url));
  // Fields of another type read as absent: they neither throw nor convert out of range (found by
  // the http_cache_meta fuzz harness).
  for (const char* bad : {R"("format": "2")", R"("format": null)", R"("size": 1e40)", R"("status": 1e30)",
                          R"("fetched_at": 99999999999999999999999)", R"("age": "0")", R"("lifetime": "60")",
                          R"("size": -5)", R"("etag": 5)"}) {
    put(store, url, "alpha");
    std::string meta = test::read_file(store.meta_path(url));
    std::string key = std::string(bad).substr(0, std::string(bad).find(':') + 1);
    auto at = meta.find(key);
    ASSERT_NE(at, std::string::npos) << key;
    meta.replace(at, meta.find_first_of(",\n", at) - at, bad);
    std::ofstream(store.meta_path(url), std::ios::trunc) << meta;
    EXPECT_FALSE(store.read(url)) << bad;
  }
  put(store, url, "alpha");
  // Another URL's metadata under this key (a hash collision): absent.
  std::string meta = test::read_file(store.meta_path(url));
  meta.replace(meta.find(url), url.size(), "https://example.org/other");
  std::ofstream(store.meta_path(url)) << meta;
  EXPECT_FALSE(store.read(url));
  auto listing = store.list();
  EXPECT_TRUE(listing.entries.empty());
  EXPECT_EQ(listing.orphans.size(), 2u);
}

// A metadata file that is a FIFO, a link or larger than a metadata file can be reads as absent,
// at once: a FIFO is never waited on (fetch would hang), a link never followed.
TEST(FetchCacheStoreTest, MetadataThatIsNotAFileReadsAsAbsent) {
  CacheStore store(test::temp_dir() + "/http");
  ASSERT_TRUE(store.prepare().ok());
  const std::string url = "https://example.org/a";
  put(store, url, "alpha");
  const std::string meta = store.meta_path(url), kept = meta + ".kept";
  fs::rename(meta, kept);
  ASSERT_EQ(::mkfifo(meta.c_str(), 0600), 0) << std::strerror(errno);
  EXPECT_FALSE(store.read(url));
  EXPECT_FALSE(store.refresh_from(meta_for(url, 5), meta_for(url, 5)).value());
  fs::remove(meta);
  fs::create_symlink(kept, meta);
  EXPECT_FALSE(store.read(url));
  fs::remove(meta);
  std::string big = test::read_file(kept);
  big.insert(big.rfind('}'), ", \"pad\": \"" + std::string(std::size_t{2} << 20, 'x') + "\"");
  std::ofstream(meta, std::ios::binary) << big;
  EXPECT_FALSE(store.read(url));
  fs::rename(kept, meta);
  EXPECT_TRUE(store.read(url));  // the same metadata, a regular file again
}

TEST(FetchCacheStoreTest, AnUnfinishedDownloadLeavesNothing) {
  CacheStore store(test::temp_dir() + "/http");
  ASSERT_TRUE(store.prepare().ok());
  std::string path;
  {
    auto tmp = store.create_temp("https://example.org/a");
    path = tmp.path();
    ASSERT_TRUE(tmp.write("half", 4));
    EXPECT_TRUE(fs::exists(path));
    EXPECT_EQ(store.list().temps.size(), 1u);
  }
  EXPECT_FALSE(fs::exists(path));
}

// The temporary file is made by the first write: a download that never writes (a 304, an error
// page) makes none, and one that finishes without a byte (an empty body) commits an empty file.
TEST(FetchCacheStoreTest, ATemporaryFileIsMadeOnlyWhenWritten) {
  CacheStore store(test::temp_dir() + "/http");
  ASSERT_TRUE(store.prepare().ok());
  std::string path;
  {
    auto tmp = store.create_temp("https://example.org/a");
    path = tmp.path();
    EXPECT_FALSE(fs::exists(path));
    EXPECT_TRUE(store.list().temps.empty());
  }
  EXPECT_FALSE(fs::exists(path));
  put(store, "https://example.org/empty", "");
  auto m = store.read("https://example.org/empty");
  ASSERT_TRUE(m);
  EXPECT_EQ(m->size, 0u);
  EXPECT_EQ(test::read_file(store.body_path("https://example.org/empty")), "");
  // Where the file cannot be made, the write says so with errno, and finish() with the path.
  CacheStore gone(test::temp_dir() + "/no-such-folder/http");
  auto tmp = gone.create_temp("https://example.org/a");
  errno = 0;
  EXPECT_FALSE(tmp.write("x", 1));
  EXPECT_EQ(errno, ENOENT);
  auto finished = tmp.finish();
  ASSERT_FALSE(finished.ok());
  EXPECT_EQ(finished.error().message, "cannot create " + tmp.path() + ": " + std::strerror(ENOENT));
}

TEST(FetchCacheStoreTest, RefreshKeepsTheBodyUnlessTheEntryChanged) {
  CacheStore store(test::temp_dir() + "/http");
  ASSERT_TRUE(store.prepare().ok());
  const std::string url = "https://example.org/a";
  put(store, url, "alpha");
  auto before = *store.read(url);
  auto after = before;
  after.fetched_at = 5000;
  after.etag = "\"f\"";
  auto r = store.refresh_from(before, after);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(*r);
  EXPECT_EQ(store.read(url)->fetched_at, 5000);
  EXPECT_EQ(store.read(url)->etag, "\"f\"");
  // Removed meanwhile: false.
  ASSERT_TRUE(store.remove(url).ok());
  auto gone = store.refresh_from(after, after);
  ASSERT_TRUE(gone.ok());
  EXPECT_FALSE(*gone);
  EXPECT_FALSE(fs::exists(store.body_path(url)));
}

// A 304 that changes only the time writes it over the old one in the same file (no new file,
// no rename); the text stays JSON that reads back whole. A file without the time's slot (as an
// older extdeps wrote them) is rewritten whole, and then has it.
TEST(FetchCacheStoreTest, ARefreshOfOnlyTheTimeWritesItInPlace) {
  CacheStore store(test::temp_dir() + "/http");
  ASSERT_TRUE(store.prepare().ok());
  const std::string url = "https://example.org/a";
  put(store, url, "alpha");
  const std::string path = store.meta_path(url);
  std::string text = test::read_file(path);
  EXPECT_NE(text.find("\"fetched_at\":                 1000,"), std::string::npos) << text;
  struct stat st {};
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  auto inode = st.st_ino;
  auto before = *store.read(url);
  auto after = before;
  after.fetched_at = 1795732587;
  auto r = store.refresh_from(before, after);
  ASSERT_TRUE(r.ok() && *r);
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_ino, inode) << "the file was replaced, not written in place";
  std::string now = test::read_file(path);
  EXPECT_EQ(now.size(), text.size());
  EXPECT_NE(now.find("\"fetched_at\":           1795732587,"), std::string::npos) << now;
  auto read = store.read(url);
  ASSERT_TRUE(read);
  EXPECT_EQ(read->fetched_at, 1795732587);
  EXPECT_EQ(read->etag, before.etag);
  EXPECT_EQ(read->lifetime_s, 60);
  // Without the slot: the same refresh makes a new file, which has it.
  std::string old_style = now;
  old_style.replace(old_style.find("          1795732587"), 20, "1795732587");
  std::ofstream(path, std::ios::trunc) << old_style;
  ASSERT_TRUE(store.read(url));
  after.fetched_at = 1795732600;
  r = store.refresh_from(*store.read(url), after);
  ASSERT_TRUE(r.ok() && *r);
  EXPECT_NE(test::read_file(path).find("\"fetched_at\":           1795732600,"), std::string::npos);
  EXPECT_EQ(store.read(url)->fetched_at, 1795732600);
  // Another lifetime is more than the time: the file is rewritten, with the new lifetime.
  auto longer = *store.read(url);
  longer.lifetime_s = 600;
  r = store.refresh_from(*store.read(url), longer);
  ASSERT_TRUE(r.ok() && *r);
  EXPECT_EQ(store.read(url)->lifetime_s, 600);
  EXPECT_TRUE(store.list().temps.empty());
}

// hold_for_reads: many reads under one shared lock, which a writer waits for; the reads give
// what reads under their own locks give, and once the holder is gone each read locks again.
TEST(FetchCacheStoreTest, ReadsUnderOneHeldLockSeeWhatLockedReadsSee) {
  CacheStore store(test::temp_dir() + "/http");
  ASSERT_TRUE(store.prepare().ok());
  put(store, "https://example.org/a", "alpha");
  put(store, "https://example.org/b", "beta");
  std::atomic<bool> wrote{false};
  std::thread writer;
  {
    auto held = store.hold_for_reads();
    ASSERT_TRUE(held.lock && held.lock->held());
    writer = std::thread([&] {
      auto w = FileLock::acquire(store.lock_path(), FileLock::Mode::exclusive);
      wrote = w.ok();
    });
    EXPECT_EQ(store.read("https://example.org/a")->size, 5u);
    EXPECT_EQ(store.read("https://example.org/b")->size, 4u);
    EXPECT_FALSE(store.read("https://example.org/c"));
    std::this_thread::sleep_for(100ms);
    EXPECT_FALSE(wrote) << "a writer got in while the reads were held";
  }
  writer.join();
  EXPECT_TRUE(wrote);
  EXPECT_EQ(store.read("https://example.org/a")->size, 5u);
  EXPECT_FALSE(store.read("https://example.org/c"));
}

TEST(FetchFileLockTest, ExclusiveWaitsForSharedHolders) {
  std::string path = test::temp_dir() + "/.lock";
  auto reader1 = FileLock::acquire(path, FileLock::Mode::shared);
  auto reader2 = FileLock::acquire(path, FileLock::Mode::shared);  // shared with shared: no wait
  ASSERT_TRUE(reader1.ok() && reader2.ok());
  std::atomic<bool> got{false};
  std::thread writer([&] {
    auto w = FileLock::acquire(path, FileLock::Mode::exclusive);
    got = w.ok();
  });
  std::this_thread::sleep_for(100ms);
  EXPECT_FALSE(got);
  { auto drop1 = std::move(reader1).value(); }
  std::this_thread::sleep_for(50ms);
  EXPECT_FALSE(got);
  { auto drop2 = std::move(reader2).value(); }
  writer.join();
  EXPECT_TRUE(got);
}

}  // namespace
}  // namespace extdeps::fetch
