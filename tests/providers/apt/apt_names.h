// The names (and virtual names) of Debian Packages files, read by the apt provider's own reader,
// as `extdeps mappings verify` sees them: for the tests that hold a table against a real index.
#pragma once

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core/context/context.h"
#include "core/mapping/mapping.h"
#include "core/mapping/verify.h"
#include "providers/apt/apt_provider.h"

namespace extdeps::mapping {

// `components`: what the lists hold (empty: every component).
inline NameIndex apt_names(const std::vector<std::string>& files, std::set<std::string> components = {}) {
  NameIndex index;
  index.description = "test lists";
  index.components = std::move(components);
  apt::Architectures archs{"amd64", {}};
  for (const auto& f : files) {
    auto r = apt::parse_index_file(f, archs, false, [&](PackageRecord&& rec) {
      for (const auto& p : rec.provides) index.provided_by.emplace(p.name, rec.name);
      index.names.insert(rec.name);
    });
    EXPECT_TRUE(r.ok()) << f << ": " << (r.ok() ? "" : r.error().message);
  }
  for (const auto& n : index.names) index.provided_by.erase(n);
  return index;
}

// Why this machine's lists cannot judge bookworm's names, or "".
inline std::string not_bookworm() {
  auto ctx = Context::from_process();
  auto host = host_release(ctx);
  if (host.id != "debian" || host.codename != "bookworm") return "this machine is not Debian bookworm";
  if (apt::list_index_files(ctx, apt::architectures(ctx)).empty()) return "no apt lists (run apt-get update)";
  return "";
}

}  // namespace extdeps::mapping
