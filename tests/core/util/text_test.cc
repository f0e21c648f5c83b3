// The text helpers every part shares (core/util/text.h): how a list value is cut.
#include "core/util/text.h"

#include <gtest/gtest.h>

namespace extdeps {
namespace {

using V = std::vector<std::string>;

TEST(AppendSplit, CutsTrimsAndLeavesOutEmptyPieces) {
  V out;
  append_split("apt, conda,,\tpypi ", ',', out);
  EXPECT_EQ(out, (V{"apt", "conda", "pypi"}));
  append_split("/opt/maps:/srv/maps", ':', out);  // appended after what was there
  EXPECT_EQ(out, (V{"apt", "conda", "pypi", "/opt/maps", "/srv/maps"}));
  V none;
  append_split("", ',', none);
  append_split(" , ,", ',', none);
  EXPECT_TRUE(none.empty());
  V one;
  append_split("debian=https://example.org/m.json?a=1", ',', one);
  EXPECT_EQ(one, (V{"debian=https://example.org/m.json?a=1"}));
}

}  // namespace
}  // namespace extdeps
