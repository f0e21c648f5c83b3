// The parsed tables kept in the cache (core/mapping/table_cache.h): a warm load gives exactly what
// parsing the TOML gives, an edited table is read again, and a damaged, cut or foreign cache
// file is refused and rebuilt.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "core/mapping/mapping.h"
#include "core/mapping/table_cache.h"
#include "core/util/sealed_file.h"
#include "tests/core/mapping/shipped.h"
#include "tests/test_support.h"

namespace extdeps::mapping {
namespace {

namespace fs = std::filesystem;

// Every .tables file in <cache>/tables.
std::vector<std::string> cache_files(const std::string& cache) {
  std::vector<std::string> out;
  std::error_code ec;
  for (fs::directory_iterator it(cache + "/tables", ec), end; !ec && it != end; it.increment(ec))
    if (it->path().extension() == ".tables") out.push_back(it->path().string());
  return out;
}

// A copy of the shipped tables in a folder of its own, so a test may edit one.
std::string copy_of_shipped() {
  std::string dir = test::temp_dir() + "/mappings";
  fs::create_directories(dir);
  for (const auto& e : fs::directory_iterator(table_testing::kMappings))
    if (e.path().extension() == ".toml") fs::copy_file(e.path(), dir + "/" + e.path().filename().string());
  return dir;
}

Context with_cache(const std::string& mappings, const std::string& cache) {
  Context ctx = Context::for_test("/", {{"EXTDEPS_MAPPINGS_DIR", mappings}});
  ctx.set_cache_dir(cache);
  return ctx;
}

// Two Tables are the same when their encodings are (encode writes every field).
std::string encoded(const Tables& t) { return table_cache::encode("", t); }

TEST(TableCache, ShippedTablesRoundTrip) {
  const Tables parsed = table_testing::shipped();
  ASSERT_GE(parsed.tables.size(), 5u);
  const std::string body = table_cache::encode("stamp", parsed);
  auto decoded = table_cache::decode(body, "stamp");
  ASSERT_TRUE(decoded);
  EXPECT_EQ(encoded(*decoded), encoded(parsed));
  // A spot check of fields the comparison above covers, to see that it compares something.
  const Entry* zlib = decoded->find_ecosystem("debian")->find("dep:generic/zlib");
  ASSERT_NE(zlib, nullptr);
  ASSERT_FALSE(zlib->alternatives(Category::host).empty());
  EXPECT_EQ(zlib->alternatives(Category::host).front().packages, std::vector<std::string>{"zlib1g-dev"});
  EXPECT_EQ(zlib->where.file, table_testing::kMappings + "/debian.toml");
  EXPECT_GT(zlib->where.line, 0);
  // Another stamp: not these tables.
  EXPECT_FALSE(table_cache::decode(body, "other"));
}

// A run that asks about a few ids builds only their entries, found as Table::find finds them (an
// id, an alias, another spelling, a versioned id), each as the whole decode has it; every
// table's header stays.
TEST(TableCache, OnlyTheEntriesOfTheIdsAsked) {
  const Tables parsed = table_testing::shipped();
  const std::string body = table_cache::encode("s", parsed);
  const std::vector<std::string> ids = {"dep:generic/zlib", "dep:github/GNOME/libxml2", "dep:generic/OpenSSL",
                                        "dep:generic/cmake@3.20"};
  auto some = table_cache::decode(body, "s", &ids);
  ASSERT_TRUE(some);
  ASSERT_EQ(some->tables.size(), parsed.tables.size());
  std::size_t entries = 0;
  for (std::size_t i = 0; i < parsed.tables.size(); ++i) {
    EXPECT_EQ(some->tables[i].ecosystem, parsed.tables[i].ecosystem);
    EXPECT_EQ(some->tables[i].release, parsed.tables[i].release);
    entries += some->tables[i].entries.size();
    for (const auto& e : some->tables[i].entries) {
      const Entry* whole = parsed.tables[i].find(e.id);
      ASSERT_NE(whole, nullptr) << e.id;
      Tables a, b;
      a.tables.push_back(Table{});
      a.tables[0].entries.push_back(e);
      b.tables.push_back(Table{});
      b.tables[0].entries.push_back(*whole);
      EXPECT_EQ(encoded(a), encoded(b)) << e.id;
    }
  }
  EXPECT_LE(entries, 4 * parsed.tables.size());
  for (const auto& id : ids) {
    const Entry* e = some->find(id);
    ASSERT_NE(e, nullptr) << id;
    EXPECT_NE(some->find_ecosystem("debian")->find(id), nullptr) << id;
    EXPECT_EQ(e->id, parsed.find(id)->id) << id;
  }
  EXPECT_EQ(some->find("dep:generic/gdal"), nullptr);  // not asked: not built
}

// With the ecosystems in use too: only their tables' entries are built ("debian+x" counts as
// debian); every other table keeps its header and has none.
TEST(TableCache, OnlyTheEntriesOfTheEcosystemsInUse) {
  const Tables parsed = table_testing::shipped();
  const std::string body = table_cache::encode("s", parsed);
  const std::vector<std::string> ids = {"dep:generic/zlib", "dep:generic/openssl", "dep:generic/gdal"};
  const std::set<std::string> in_use = {"debian", "pkgconfig"};
  auto some = table_cache::decode(body, "s", &ids, nullptr, &in_use);
  ASSERT_TRUE(some);
  ASSERT_EQ(some->tables.size(), parsed.tables.size());
  std::size_t kept = 0, others = 0;
  for (std::size_t i = 0; i < parsed.tables.size(); ++i) {
    const std::string& eco = parsed.tables[i].ecosystem;
    EXPECT_EQ(some->tables[i].ecosystem, eco);
    const bool used = in_use.count(eco.substr(0, eco.find('+'))) > 0;
    for (const auto& id : ids) {
      const Entry* want = parsed.tables[i].find(id);
      const Entry* got = some->tables[i].find(id);
      if (used) {
        ASSERT_EQ(want == nullptr, got == nullptr) << id << " in " << eco;
        if (got) ++kept;
      } else {
        EXPECT_EQ(got, nullptr) << id << " in " << eco;
        if (want) ++others;
      }
    }
    if (!used) EXPECT_TRUE(some->tables[i].entries.empty()) << eco;
  }
  EXPECT_GE(kept, 3u);
  EXPECT_GT(others, 0u) << "no other table maps these ids: the filter is not shown to drop anything";
  // Without the filter, the same ids in every table.
  auto all = table_cache::decode(body, "s", &ids);
  ASSERT_TRUE(all);
  for (std::size_t i = 0; i < parsed.tables.size(); ++i)
    for (const auto& id : ids) EXPECT_EQ(parsed.tables[i].find(id) == nullptr, all->tables[i].find(id) == nullptr);
}

// A run that asks about a few ids reads their entries only, each checked against its own CRC: a
// damaged entry it asks about is refused and said to be damaged, a damaged one it does not ask
// about is never read. The whole decode checks every entry.
TEST(TableCache, EachEntryIsCheckedWhenItIsRead) {
  const Tables parsed = table_testing::shipped();
  const std::string body = table_cache::encode("s", parsed);
  const Entry* zlib = parsed.find_ecosystem("debian")->find("dep:generic/zlib");
  const Entry* gdal = parsed.find_ecosystem("debian")->find("dep:generic/gdal");
  ASSERT_NE(zlib, nullptr);
  ASSERT_NE(gdal, nullptr);
  ASSERT_EQ(gdal->id, "dep:generic/gdal");
  // An entry starts with its id, a length and the bytes: flip a byte of gdal's id in one table.
  const std::string id = "dep:generic/gdal";
  const std::string encoded_id = std::string(1, static_cast<char>(id.size())) + std::string(3, '\0') + id;
  const std::size_t at = body.find(encoded_id);
  ASSERT_NE(at, std::string::npos);
  std::string bad = body;
  bad[at + 4 + 5] = static_cast<char>(bad[at + 4 + 5] ^ 0x20);
  const std::vector<std::string> zlib_only = {"dep:generic/zlib"}, gdal_only = {"dep:generic/gdal"};
  std::string damage;
  auto some = table_cache::decode(bad, "s", &zlib_only, &damage);
  ASSERT_TRUE(some) << damage;
  EXPECT_NE(some->find("dep:generic/zlib"), nullptr);
  damage.clear();
  EXPECT_FALSE(table_cache::decode(bad, "s", &gdal_only, &damage));
  EXPECT_NE(damage.find("checksum"), std::string::npos) << damage;
  damage.clear();
  EXPECT_FALSE(table_cache::decode(bad, "s", nullptr, &damage));
  EXPECT_NE(damage.find("checksum"), std::string::npos) << damage;
  // Another stamp is not damage: nothing to say.
  damage.clear();
  EXPECT_FALSE(table_cache::decode(body, "other", nullptr, &damage));
  EXPECT_TRUE(damage.empty()) << damage;
}

// The index finds an id however many tables share it and however the records fall into blocks:
// every id and alias of every shipped table, asked alone, builds its entry in every table that
// has it.
TEST(TableCache, EveryIdAndAliasIsFoundThroughTheIndex) {
  const Tables parsed = table_testing::shipped();
  const std::string body = table_cache::encode("s", parsed);
  std::size_t asked = 0;
  for (const Table& t : parsed.tables) {
    for (const Entry& e : t.entries) {
      std::vector<std::string> keys{e.id};
      keys.insert(keys.end(), e.aliases.begin(), e.aliases.end());
      for (const auto& k : keys) {
        const std::vector<std::string> one{k};
        auto some = table_cache::decode(body, "s", &one);
        ASSERT_TRUE(some) << k;
        for (std::size_t i = 0; i < parsed.tables.size(); ++i) {
          const Entry* want = parsed.tables[i].find(k);
          const Entry* got = some->tables[i].find(k);
          ASSERT_EQ(want == nullptr, got == nullptr) << k << " in " << parsed.tables[i].ecosystem;
          if (want) EXPECT_EQ(got->id, want->id) << k;
        }
        ++asked;
      }
    }
  }
  EXPECT_GT(asked, 5000u);
}

// Records are searched in halves within a block, so a block whose records are out of order (its
// checksums made to match, as a foreign writer would) is refused rather than searched wrong.
TEST(TableCache, AnIndexBlockOutOfOrderIsRefused) {
  const Tables parsed = table_testing::shipped();
  std::string body = table_cache::encode("s", parsed);
  auto u32_at = [&](std::size_t at) {
    return std::uint32_t(static_cast<unsigned char>(body[at])) |
           std::uint32_t(static_cast<unsigned char>(body[at + 1])) << 8 |
           std::uint32_t(static_cast<unsigned char>(body[at + 2])) << 16 |
           std::uint32_t(static_cast<unsigned char>(body[at + 3])) << 24;
  };
  auto put_u32 = [&](std::size_t at, std::uint32_t v) {
    for (int i = 0; i < 4; ++i) body[at + i] = static_cast<char>(v >> (8 * i));
  };
  // format, stamp, head length, head, head CRC, then the records (20 bytes each).
  const std::size_t head_at = 4 + 4 + u32_at(4) + 4;
  const std::uint32_t head_len = u32_at(head_at - 4);
  const std::size_t recs_at = head_at + head_len + 4;
  // The head: per table five strings, a list of strings and a count; then the key count, the
  // block count, and each block's first hash and CRC.
  std::size_t at = head_at;
  const std::uint32_t ntables = u32_at(at);
  at += 4;
  auto skip_string = [&] { at += 4 + u32_at(at); };
  for (std::uint32_t t = 0; t < ntables; ++t) {
    for (int i = 0; i < 5; ++i) skip_string();
    const std::uint32_t overlays = u32_at(at);
    at += 4;
    for (std::uint32_t i = 0; i < overlays; ++i) skip_string();
    at += 4;
  }
  const std::uint32_t nblocks = u32_at(at + 4);
  const std::size_t blocks_at = at + 8;
  ASSERT_EQ(blocks_at + 12 * std::size_t{nblocks}, head_at + head_len);
  // Records 1 and 2 of block 0 change places (their hashes differ); the first stays first.
  std::string r1 = body.substr(recs_at + 20, 20), r2 = body.substr(recs_at + 40, 20);
  ASSERT_NE(r1.substr(0, 8), r2.substr(0, 8));
  body.replace(recs_at + 20, 20, r2);
  body.replace(recs_at + 40, 20, r1);
  put_u32(blocks_at + 8, sealed::crc32_of(std::string_view(body).substr(recs_at, 256 * 20)));
  put_u32(head_at + head_len, sealed::crc32_of(std::string_view(body).substr(head_at, head_len)));
  std::vector<std::string> ids;
  for (const Table& t : parsed.tables)
    for (const Entry& e : t.entries) ids.push_back(e.id);
  std::string damage;
  EXPECT_FALSE(table_cache::decode(body, "s", &ids, &damage));
  EXPECT_NE(damage.find("out of order"), std::string::npos) << damage;
}

TEST(TableCache, RegexRulesWorkWithoutTheCompiledPattern) {
  const Tables parsed = table_testing::shipped();
  auto decoded = table_cache::decode(table_cache::encode("s", parsed), "s");
  ASSERT_TRUE(decoded);
  std::size_t rules = 0;
  for (const Entry& e : decoded->find_ecosystem("debian")->entries) {
    for (const auto& [category, alts] : e.by_category) {
      for (const Alternative& a : alts) {
        if (a.version.kind != "regex") continue;
        ++rules;
        EXPECT_EQ(a.version.compiled, nullptr);
        // The same answer as the rule compiled by load_table, on a version it is written for.
        const Entry* same = parsed.find_ecosystem("debian")->find(e.id);
        ASSERT_NE(same, nullptr);
        const Alternative& b = same->alternatives(category).front();
        ASSERT_NE(b.version.compiled, nullptr);
        EXPECT_EQ(upstream_version(a.version, "1:3.6.2+dfsg-1+b2"), upstream_version(b.version, "1:3.6.2+dfsg-1+b2"));
      }
    }
  }
  EXPECT_GT(rules, 0u) << "debian.toml has no regex version rule left to check";
}

TEST(TableCache, EveryCutOrFlippedBodyIsRefusedOrReadsWhole) {
  // A small real table, so every prefix can be tried.
  std::string mappings = test::temp_dir();
  fs::copy_file(test::data_path("mapping/valid.toml"), mappings + "/debian.toml");
  Context ctx = Context::for_test("/", {{"EXTDEPS_MAPPINGS_DIR", mappings}});
  auto tables = load_tables(ctx, {});
  ASSERT_TRUE(tables) << tables.error().message;
  const std::string body = table_cache::encode("s", *tables);
  for (std::size_t n = 0; n < body.size(); ++n)
    EXPECT_FALSE(table_cache::decode(body.substr(0, n), "s")) << "cut at " << n;
  EXPECT_FALSE(table_cache::decode(body + "x", "s"));
  // A changed byte either is refused or reads whole; it never crashes or over-allocates
  // (ASan runs this too).
  for (std::size_t i = 0; i < body.size(); ++i) {
    std::string bad = body;
    bad[i] = static_cast<char>(bad[i] ^ 0xff);
    (void)table_cache::decode(bad, "s");
  }
}

TEST(TableCache, WarmLoadReadsTheCacheAndAnEditIsSeen) {
  const std::string mappings = copy_of_shipped();
  const std::string cache = test::temp_dir();
  Context ctx = with_cache(mappings, cache);
  auto cold = load_tables(ctx, {});
  ASSERT_TRUE(cold) << cold.error().message;
  auto files = cache_files(cache);
  ASSERT_EQ(files.size(), 1u);
  auto warm = load_tables(ctx, {});
  ASSERT_TRUE(warm) << warm.error().message;
  EXPECT_EQ(encoded(*warm), encoded(*cold));
  EXPECT_TRUE(ctx.warnings().empty());

  // The warm load read the cache: a cache whose stamp matches but whose tables differ is
  // believed. (Only this test writes such a file; it shows the TOML was not read.)
  auto bytes = sealed::read_all(files[0]);
  ASSERT_TRUE(bytes);
  auto body = sealed::unseal(table_cache::kKind, *bytes);
  ASSERT_TRUE(body.ok());
  std::vector<std::string> table_files;
  for (const auto& e : fs::directory_iterator(mappings)) table_files.push_back(e.path().string());
  std::sort(table_files.begin(), table_files.end());
  auto stamp = table_cache::stamp(table_files);
  ASSERT_TRUE(stamp);
  Tables planted = *cold;
  planted.tables.front().description = "planted";
  ASSERT_TRUE(sealed::write_atomically(files[0], table_cache::kKind, table_cache::encode(*stamp, planted)).ok());
  auto from_cache = load_tables(ctx, {});
  ASSERT_TRUE(from_cache);
  EXPECT_EQ(from_cache->tables.front().description, "planted");

  // An edited table (new size and time) is parsed again, and the cache follows it.
  {
    std::ofstream out(mappings + "/debian.toml", std::ios::app);
    out << "\n[[id]]\nid = \"dep:generic/table-cache-test\"\nhost = [\"zlib1g-dev\"]\n";
  }
  auto edited = load_tables(ctx, {});
  ASSERT_TRUE(edited) << edited.error().message;
  EXPECT_NE(edited->tables.front().description, "planted");
  ASSERT_NE(edited->find("dep:generic/table-cache-test"), nullptr);
  auto again = load_tables(ctx, {});
  ASSERT_TRUE(again);
  ASSERT_NE(again->find("dep:generic/table-cache-test"), nullptr);
  EXPECT_EQ(encoded(*again), encoded(*edited));

  // A table removed from the folder is gone from the next load.
  fs::remove(mappings + "/pypi.toml");
  auto fewer = load_tables(ctx, {});
  ASSERT_TRUE(fewer);
  EXPECT_EQ(fewer->find_ecosystem("pypi"), nullptr);
}

TEST(TableCache, DamagedCacheFileIsRebuiltWithAWarning) {
  const std::string mappings = copy_of_shipped();
  const std::string cache = test::temp_dir();
  Context ctx = with_cache(mappings, cache);
  auto cold = load_tables(ctx, {});
  ASSERT_TRUE(cold);
  auto files = cache_files(cache);
  ASSERT_EQ(files.size(), 1u);
  auto bytes = sealed::read_all(files[0]);
  ASSERT_TRUE(bytes);
  std::string bad = *bytes;
  bad[bad.size() / 2] = static_cast<char>(bad[bad.size() / 2] ^ 0x5a);
  std::ofstream(files[0], std::ios::binary | std::ios::trunc) << bad;

  auto rebuilt = load_tables(ctx, {});
  ASSERT_TRUE(rebuilt);
  EXPECT_EQ(encoded(*rebuilt), encoded(*cold));
  ASSERT_EQ(ctx.warnings().size(), 1u);
  EXPECT_NE(ctx.warnings()[0].find("damaged cache file"), std::string::npos) << ctx.warnings()[0];
  EXPECT_EQ(sealed::read_all(files[0]), bytes) << "the rebuilt file is the same as the first";
}

TEST(TableCache, NoCacheFolderNoCacheFile) {
  const std::string mappings = copy_of_shipped();
  Context ctx = Context::for_test("/", {{"EXTDEPS_MAPPINGS_DIR", mappings}});
  ASSERT_FALSE(ctx.cache_enabled());
  auto t = load_tables(ctx, {});
  ASSERT_TRUE(t);
  EXPECT_NE(t->find("dep:generic/zlib"), nullptr);
}

TEST(TableCache, ABadTableIsAnErrorEveryTimeAndNothingIsCached) {
  const std::string mappings = copy_of_shipped();
  const std::string cache = test::temp_dir();
  std::ofstream(mappings + "/zz-broken.toml") << "schema = 1\necosystem = \"debian\"\n[[id]]\nid = 3\n";
  Context ctx = with_cache(mappings, cache);
  for (int i = 0; i < 2; ++i) {
    auto t = load_tables(ctx, {});
    ASSERT_FALSE(t);
    EXPECT_NE(t.error().message.find("zz-broken.toml:4:6"), std::string::npos) << t.error().message;
  }
  EXPECT_TRUE(cache_files(cache).empty());
}

}  // namespace
}  // namespace extdeps::mapping
