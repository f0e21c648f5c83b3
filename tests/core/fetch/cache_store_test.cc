#include "core/fetch/cache_store.h"

#include <gtest/gtest.h>

#include <atomic>
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
  ASSERT_TRUE(tmp.ok()) << tmp.error().message;
  ASSERT_TRUE(tmp->write(body.data(), body.size()));
  ASSERT_TRUE(store.commit(meta_for(url, body.size()), *tmp).ok());
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

TEST(FetchCacheStoreTest, AnUnfinishedDownloadLeavesNothing) {
  CacheStore store(test::temp_dir() + "/http");
  ASSERT_TRUE(store.prepare().ok());
  std::string path;
  {
    auto tmp = store.create_temp("https://example.org/a");
    ASSERT_TRUE(tmp.ok());
    path = tmp->path();
    ASSERT_TRUE(tmp->write("half", 4));
    EXPECT_TRUE(fs::exists(path));
    EXPECT_EQ(store.list().temps.size(), 1u);
  }
  EXPECT_FALSE(fs::exists(path));
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
