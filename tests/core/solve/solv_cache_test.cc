// The .solv cache checks itself: a damaged, cut, foreign or empty cache file is never handed to
// libsolv; it is removed with a warning and rebuilt, and the plan is the same as without it.
#include "core/solve/pool_builder.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "core/util/sealed_file.h"
#include "tests/support/cli_fixture.h"
#include "tests/support/providers.h"
#include "tests/test_support.h"

namespace fs = std::filesystem;

namespace extdeps {
namespace {

const char* kProject = R"([external]
build-requires = ["dep:virtual/compiler/c", "dep:generic/make"]
host-requires = ["dep:generic/libxml2@>=2.9", "dep:generic/zlib"]
)";

class SolvCacheTest : public test::CliFixture {
 protected:
  std::vector<std::string> solv_files() const {
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(cache_ + "/solv"))
      if (e.path().extension() == ".solv") out.push_back(e.path().string());
    std::sort(out.begin(), out.end());
    return out;
  }
  // A first run writes the cache; returns its plan.
  std::string first_run() {
    write_project("extdeps.toml", kProject);
    auto r = run({"resolve", project_, "--json"});
    EXPECT_EQ(r.rc, 0) << r.err;
    EXPECT_FALSE(solv_files().empty());
    auto again = run({"resolve", project_, "--json"});
    EXPECT_TRUE(again.warnings.empty());
    EXPECT_EQ(again.out, r.out);
    return r.out;
  }
  // After `damage`, the next run warns about the damaged file, plans the same, and leaves good
  // files that a third run reads without a warning.
  void expect_rebuilt(const std::string& plan, const std::function<void(const std::string&)>& damage) {
    for (const auto& f : solv_files()) {
      damage(f);
      auto r = run({"resolve", project_, "--json"});
      EXPECT_EQ(r.rc, 0) << r.err;
      EXPECT_EQ(r.out, plan);
      ASSERT_EQ(r.warnings.size(), 1u) << f;
      EXPECT_NE(r.warnings[0].find(f + ": damaged cache file ("), std::string::npos) << r.warnings[0];
      EXPECT_NE(r.warnings[0].find("); rebuilding it from the sources"), std::string::npos) << r.warnings[0];
      auto clean = run({"resolve", project_, "--json"});
      EXPECT_TRUE(clean.warnings.empty()) << clean.warnings[0];
      EXPECT_EQ(clean.out, plan);
    }
  }
};

TEST_F(SolvCacheTest, ACutFileIsRebuilt) {
  EXTDEPS_NEEDS_PROVIDER("apt");
  auto plan = first_run();
  expect_rebuilt(plan, [](const std::string& f) { fs::resize_file(f, fs::file_size(f) / 2); });
}

TEST_F(SolvCacheTest, FlippedBytesAreRebuilt) {
  EXTDEPS_NEEDS_PROVIDER("apt");
  auto plan = first_run();
  expect_rebuilt(plan, [](const std::string& f) {
    std::string bytes = test::read_file(f);
    // One in the body, past the header: only the checksum can tell.
    bytes[sealed::kHeaderSize + (bytes.size() - sealed::kHeaderSize) / 2] ^= 0x5a;
    std::ofstream(f, std::ios::binary | std::ios::trunc) << bytes;
  });
  expect_rebuilt(plan, [](const std::string& f) {
    std::string bytes = test::read_file(f);
    bytes[50] ^= 0x01;  // the length field of the header
    std::ofstream(f, std::ios::binary | std::ios::trunc) << bytes;
  });
}

TEST_F(SolvCacheTest, AForeignFileIsRebuilt) {
  EXTDEPS_NEEDS_PROVIDER("apt");
  auto plan = first_run();
  // A plain libsolv file (what extdeps wrote before the header), and a file of another kind.
  expect_rebuilt(plan, [](const std::string& f) {
    std::string bytes = test::read_file(f);
    std::ofstream(f, std::ios::binary | std::ios::trunc) << bytes.substr(sealed::kHeaderSize);
  });
  expect_rebuilt(plan, [](const std::string& f) {
    std::string bytes = test::read_file(f);
    std::ofstream(f, std::ios::binary | std::ios::trunc) << sealed::seal("json", bytes.substr(sealed::kHeaderSize));
  });
}

TEST_F(SolvCacheTest, AnEmptyFileIsRebuilt) {
  EXTDEPS_NEEDS_PROVIDER("apt");
  auto plan = first_run();
  expect_rebuilt(plan, [](const std::string& f) { std::ofstream(f, std::ios::trunc); });
}

TEST_F(SolvCacheTest, StaleTemporaryFilesOfAKilledRunAreRemoved) {
  EXTDEPS_NEEDS_PROVIDER("apt");
  auto plan = first_run();
  // A child that exits at once: its pid names no running process afterwards.
  pid_t child = fork();
  if (child == 0) _exit(0);
  ASSERT_GT(child, 0);
  waitpid(child, nullptr, 0);
  std::string dead = cache_ + "/solv/.tmp-" + std::to_string(child) + "-0-debian-0.available.solv";
  std::string live = cache_ + "/solv/.tmp-" + std::to_string(getpid()) + "-99-debian-0.available.solv";
  std::ofstream(dead) << "half";
  std::ofstream(live) << "half";
  auto r = run({"resolve", project_, "--json"});
  EXPECT_EQ(r.out, plan);
  EXPECT_FALSE(fs::exists(dead));
  EXPECT_TRUE(fs::exists(live));  // a writer that still runs keeps its file
}

TEST(SealedFile, UnsealSaysWhatIsWrong) {
  std::string good = sealed::seal("solv", "body bytes");
  ASSERT_TRUE(sealed::unseal("solv", good).ok());
  EXPECT_EQ(*sealed::unseal("solv", good), "body bytes");
  EXPECT_EQ(sealed::unseal("solv", "").error().message, "empty file");
  EXPECT_EQ(sealed::unseal("solv", "SOLV\0\0\0\x08").error().message, "not an extdeps cache file");
  EXPECT_EQ(sealed::unseal("json", good).error().message, "not a json cache file");
  EXPECT_EQ(sealed::unseal("solv", good + "x").error().message,
            "cut short or overlong: the body is 11 bytes, the header says 10");
  std::string flipped = good;
  flipped.back() ^= 1;
  EXPECT_EQ(sealed::unseal("solv", flipped).error().message, "checksum mismatch");
  std::string header = good;
  header[20] ^= 1;  // inside the version field
  EXPECT_EQ(sealed::unseal("solv", header).error().message, "damaged header");
}

// Two processes writing one cache file at once leave one whole file.
TEST(SealedFile, ConcurrentWritersLeaveOneGoodFile) {
  std::string dir = test::temp_dir();
  std::string path = dir + "/x.solv";
  std::string a(1 << 20, 'a'), b(1 << 20, 'b');
  std::vector<std::thread> writers;
  for (int i = 0; i < 8; ++i)
    writers.emplace_back([&, i] {
      for (int k = 0; k < 5; ++k) ASSERT_TRUE(sealed::write_atomically(path, "solv", i % 2 ? a : b).ok());
    });
  for (auto& t : writers) t.join();
  auto bytes = sealed::read_all(path);
  ASSERT_TRUE(bytes);
  auto body = sealed::unseal("solv", *bytes);
  ASSERT_TRUE(body.ok()) << body.error().message;
  EXPECT_TRUE(*body == a || *body == b);
  for (const auto& e : fs::directory_iterator(dir)) EXPECT_FALSE(sealed::is_temp_name(e.path().filename().string()));
}

// libsolv never sees bytes that fail the check: a header over a body libsolv would choke on is
// refused before it is parsed, and a good file loads.
TEST(SolvCacheLoad, OnlyCheckedBytesReachLibsolv) {
  solve::PoolPtr pool(pool_create());
  Repo* repo = repo_create(pool.get(), "x");
  Id p = repo_add_solvable(repo);
  Solvable* s = pool_id2solvable(pool.get(), p);
  s->name = pool_str2id(pool.get(), "debian:zlib1g", 1);
  s->evr = pool_str2id(pool.get(), "1.2.13", 1);
  s->arch = ARCH_NOARCH;
  repo_internalize(repo);
  auto body = solve::solv_cache_body(repo, repo->start, repo->end);
  ASSERT_TRUE(body.ok());
  std::string file = sealed::seal(solve::kSolvCacheKind, *body);

  Repo* into = repo_create(pool.get(), "y");
  ASSERT_TRUE(solve::load_solv_cache(into, file).ok());
  EXPECT_EQ(into->nsolvables, 1);

  // The text kept after the solv data (the evr map) comes back as it was written, and libsolv
  // never sees it.
  auto with_text = solve::solv_cache_body(repo, repo->start, repo->end, "0:a1a\t1.0\n");
  ASSERT_TRUE(with_text.ok());
  std::string text;
  Repo* again = repo_create(pool.get(), "w");
  ASSERT_TRUE(solve::load_solv_cache(again, sealed::seal(solve::kSolvCacheKind, *with_text), &text).ok());
  EXPECT_EQ(again->nsolvables, 1);
  EXPECT_EQ(text, "0:a1a\t1.0\n");
  // A length of the solv data past the end of the body is refused before libsolv reads it.
  std::string long_length = *with_text;
  long_length[0] = static_cast<char>(0xff);
  long_length[1] = static_cast<char>(0xff);
  auto refused = solve::load_solv_cache(repo_create(pool.get(), "v"), sealed::seal(solve::kSolvCacheKind, long_length));
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().message.find("is not within the file"), std::string::npos) << refused.error().message;

  std::string cut = file.substr(0, file.size() - 3);
  Repo* bad = repo_create(pool.get(), "z");
  EXPECT_FALSE(solve::load_solv_cache(bad, cut).ok());
  EXPECT_FALSE(solve::load_solv_cache(bad, *body).ok());  // no header
  EXPECT_EQ(bad->nsolvables, 0);
}

}  // namespace
}  // namespace extdeps
