// The tables shipped in mappings/, as the mapping tests read them: one file alone (load_table) or
// all of them as a machine loads them (load_tables).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "core/context/context.h"
#include "core/mapping/mapping.h"
#include "tests/test_support.h"

namespace extdeps::mapping::table_testing {

inline const std::string kMappings = EXTDEPS_SOURCE_MAPPINGS_DIR;

// mappings/<name>, e.g. "debian.toml".
inline Table shipped(const std::string& name) {
  auto t = load_table(kMappings + "/" + name);
  EXPECT_TRUE(t) << t.error().message;
  return t ? std::move(*t) : Table{};
}

// Every shipped table, overlays and shared aliases applied.
inline Tables shipped() {
  auto ctx = Context::for_test("/", {{"EXTDEPS_MAPPINGS_DIR", kMappings}});
  auto t = load_tables(ctx, {});
  EXPECT_TRUE(t) << t.error().message;
  return t ? std::move(*t) : Tables{};
}

// Whether the entry names the package anywhere (any category, alternative or release).
inline bool mentions(const Entry& e, const std::string& package) {
  const auto all = e.all_packages();
  return std::find(all.begin(), all.end(), package) != all.end();
}

}  // namespace extdeps::mapping::table_testing
