// `extdeps mappings verify` of debian.toml on real indexes: against this machine's bookworm lists
// (every name of main must be there), its non-free names and its trixie names against trimmed
// real Debian lists (tests/data/mapping/indexes/); and what a missing or virtual-only name looks
// like. The names are read by the apt provider's own reader.
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>

#include "core/context/context.h"
#include "core/mapping/verify.h"
#include "providers/apt/apt_provider.h"
#include "tests/core/mapping/shipped.h"
#include "tests/providers/apt/apt_names.h"
#include "tests/test_support.h"

namespace extdeps::mapping {
namespace {

using namespace table_testing;

std::string problems(const VerifyReport& r) {
  std::string s;
  for (const auto& p : r.problems) s += p.str() + "\n";
  return s;
}

TEST(Verify, EveryMainNameOfDebianTomlIsInThisMachinesBookwormIndex) {
  if (auto why = not_bookworm(); !why.empty()) GTEST_SKIP() << why;
  auto ctx = Context::from_process();
  Tables t = shipped();
  select_for_host(t, host_release(ctx));
  const auto files = apt::list_index_files(ctx, apt::architectures(ctx));
  const NameIndex index = apt_names(files, {"main"});
  ASSERT_GT(index.names.size(), 50000u);
  const auto r = verify(*t.find_ecosystem("debian"), index);
  EXPECT_EQ(r.found, r.checked) << problems(r);
  EXPECT_GT(r.checked, 600u);
  EXPECT_GT(r.ids, 300u);
  // Only non-free names are left for the test below, and trixie's for the one after it.
  EXPECT_EQ(r.skipped_components, std::set<std::string>{"non-free"});
  EXPECT_GT(r.other_releases, 100u);
}

TEST(Verify, TheNonFreeNamesAreInBookwormsNonFreeIndex) {
  Tables t = shipped();
  select_for_host(t, HostRelease{"debian", {}, "bookworm", "12"});
  // Only the non-free alternatives, against the trimmed real non-free list.
  Table non_free = *t.find_ecosystem("debian");
  for (auto& e : non_free.entries)
    for (auto& [c, alts] : e.by_category)
      std::erase_if(alts, [](const Alternative& a) { return a.component != "non-free"; });
  const auto index = apt_names({test::data_path("mapping/indexes/bookworm-non-free_binary-amd64_Packages.xz")});
  const auto r = verify(non_free, index);
  EXPECT_EQ(r.found, r.checked) << problems(r);
  EXPECT_GE(r.checked, 40u);  // the CUDA toolkit and libraries, MKL, NPP, nvJPEG, NVTX, NVML
}

// debian.toml as a trixie machine sees it (its [id.release.trixie] tables applied): every name,
// main and non-free, is in trixie's index.
TEST(Verify, EveryNameOfDebianTomlForTrixieIsInTrixiesIndex) {
  Tables t = shipped();
  select_for_host(t, HostRelease{"debian", {}, "trixie", "13"});
  const Table& trixie = *t.find_ecosystem("debian");
  EXPECT_EQ(trixie.selected_release, "trixie");
  const auto index = apt_names({test::data_path("mapping/indexes/trixie-main-non-free_binary-amd64_Packages.xz")});
  const auto r = verify(trixie, index);
  EXPECT_EQ(r.found, r.checked) << problems(r);
  EXPECT_GT(r.checked, 2000u);
  EXPECT_EQ(r.skipped, 0u);
  // The names are trixie's where the releases differ.
  const Entry* ssl = trixie.find("dep:generic/openssl");
  ASSERT_NE(ssl, nullptr);
  EXPECT_EQ(ssl->alternatives(Category::run).front().packages, std::vector<std::string>{"libssl3t64"});
  EXPECT_FALSE(trixie.find("dep:generic/nvjitlink")->unavailable());
  EXPECT_TRUE(trixie.find("dep:generic/atlas")->unavailable());
  std::size_t differ = 0;
  for (const auto& e : trixie.entries)
    for (const auto& rel : e.releases) differ += rel.release == "trixie";
  EXPECT_EQ(differ, 315u);  // entries whose trixie names differ from bookworm's
}

TEST(Verify, AMissingNameIsNamedAtItsAlternativeAndAVirtualOneToo) {
  const std::string dir = test::temp_dir();
  std::ofstream(dir + "/debian.toml") << "schema = 1\necosystem = \"debian\"\nmanager = \"apt\"\n\n"
                                         "[[id]]\nid = \"dep:generic/c\"\nbuild = [\"c-compiler\"]\n\n"
                                         "[[id]]\nid = \"dep:generic/zlib\"\n\n"
                                         "[[id.alternative]]\nhost = [\"zlib1g-dev\"]\n\n"
                                         "[[id.alternative]]\nhost = [\"libz-dev\", \"zlib-ng-dev\"]\n";
  auto table = load_table(dir + "/debian.toml");
  ASSERT_TRUE(table) << table.error().message;
  // The fixture's real bookworm main list: gcc provides c-compiler, zlib1g-dev provides libz-dev.
  const auto index = apt_names({test::data_path(
      "apt/bookworm/var/lib/apt/lists/deb.debian.org_debian_dists_bookworm_main_binary-amd64_Packages.lz4")});
  const auto r = verify(*table, index);
  EXPECT_EQ(r.checked, 4u);
  EXPECT_EQ(r.found, 1u);
  EXPECT_EQ(problems(r),
            dir +
                "/debian.toml:5:1: dep:generic/c: c-compiler is only a virtual package (provided by gcc-12): "
                "name a real package\n" +
                dir +
                "/debian.toml:15:1: dep:generic/zlib: libz-dev is only a virtual package (provided by "
                "zlib1g-dev): name a real package\n" +
                dir + "/debian.toml:15:1: dep:generic/zlib: zlib-ng-dev is not in the index\n");
  std::ostringstream out;
  print_verify(*table, index, r, out);
  EXPECT_NE(out.str().find("debian: checked 4 names of 2 ids against test lists: 1 found, 3 missing\n"),
            std::string::npos)
      << out.str();
}

}  // namespace
}  // namespace extdeps::mapping
