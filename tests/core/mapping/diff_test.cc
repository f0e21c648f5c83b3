// mapping::diff on the shipped tables and on real entries changed as a maintainer would.
#include "core/mapping/diff.h"

#include <gtest/gtest.h>

#include <sstream>

#include "tests/core/mapping/shipped.h"

namespace extdeps::mapping {
namespace {

using table_testing::shipped;

const FieldChange* field(const EntryDiff& e, const std::string& name) {
  for (const auto& c : e.changes)
    if (c.field == name) return &c;
  return nullptr;
}

Table table(const std::string& text) {
  auto t = load_table_text(text, "test.toml");
  EXPECT_TRUE(t) << t.error().message;
  return t ? std::move(*t) : Table{};
}

TEST(MappingDiff, EveryShippedTableIsItsOwnSame) {
  for (const char* name : {"debian.toml", "conda-forge.toml", "fedora.toml", "pkgconfig.toml", "pypi.toml"}) {
    const Table t = shipped(name);
    ASSERT_FALSE(t.entries.empty()) << name;
    const TableDiff d = diff(t, t);
    EXPECT_TRUE(d.empty()) << name;
    EXPECT_EQ(d.same, t.entries.size()) << name;
  }
}

// The shipped pkgconfig table's freetype entry, and the same entry as it was before its libtool
// map was written (issue 33): the module's version rule is what changed.
TEST(MappingDiff, AModuleVersionRule) {
  const Table now = shipped("pkgconfig.toml");
  Table before = now;
  for (auto& e : before.entries)
    if (e.id == "dep:generic/freetype") e.module_versions.clear();
  const TableDiff d = diff(before, now);
  ASSERT_EQ(d.changed.size(), 1u);
  EXPECT_EQ(d.changed[0].id, "dep:generic/freetype");
  const FieldChange* c = field(d.changed[0], "module freetype2 version");
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->before, "native");
  EXPECT_EQ(c->after.rfind("map {", 0), 0u) << c->after;
  EXPECT_NE(c->after.find("24.3.18=2.12.1"), std::string::npos) << c->after;
}

// debian.toml's libfuse as bookworm names it, then with a trixie release added and one
// category's package renamed: each change on its own line, the unchanged categories silent.
TEST(MappingDiff, ReleasesAndOneCategory) {
  const std::string head = "schema = 1\necosystem = \"debian\"\nmanager = \"apt\"\nversion = \"deb-upstream\"\n\n";
  const Table a =
      table(head + "[[id]]\nid = \"dep:generic/libfuse\"\nhost = [\"libfuse3-dev\"]\nrun = [\"libfuse3-3\"]\n");
  const Table b = table(head +
                        "[[id]]\nid = \"dep:generic/libfuse\"\nhost = [\"libfuse3-dev\"]\nrun = [\"libfuse3-4\"]\n\n"
                        "[id.release.trixie]\nhost = [\"libfuse3-dev\"]\nrun = [\"libfuse3-4\"]\n");
  const TableDiff d = diff(a, b);
  ASSERT_EQ(d.changed.size(), 1u);
  const EntryDiff& e = d.changed[0];
  ASSERT_NE(field(e, "run"), nullptr);
  EXPECT_EQ(field(e, "run")->before, "libfuse3-3");
  EXPECT_EQ(field(e, "run")->after, "libfuse3-4");
  EXPECT_EQ(field(e, "host"), nullptr);
  EXPECT_EQ(field(e, "build"), nullptr);
  EXPECT_EQ(field(e, "version"), nullptr);
  ASSERT_NE(field(e, "release trixie"), nullptr);
  EXPECT_EQ(field(e, "release trixie")->before, "");
  EXPECT_EQ(field(e, "release trixie")->after, "build: libfuse3-dev; host: libfuse3-dev; run: libfuse3-4");
  std::ostringstream text;
  print_diff(d, text);
  EXPECT_NE(text.str().find("~ dep:generic/libfuse\n    run: libfuse3-3 -> libfuse3-4\n"), std::string::npos)
      << text.str();
  EXPECT_NE(text.str().find("0 added, 0 removed, 1 changed, 0 the same\n"), std::string::npos) << text.str();
}

}  // namespace
}  // namespace extdeps::mapping
