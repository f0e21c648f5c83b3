// Records held compactly until the solver knows which of them a request can reach. An index has
// far more records than any plan can touch (conda-forge ~300,000, of which a ten-need request
// reaches a few thousand), and a libsolv pool charges for every string it holds, at load and
// again when the .solv cache is written. So a provider's available records are buffered here:
// names, versions and relation texts interned once (they repeat across an index), a record a
// run of small integers; the closure of the mapped names is computed on the buffer, and only the
// records in it reach the pool. No libsolv type here.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/model/record.h"
#include "core/util/string_index.h"

namespace extdeps::solve {

class RecordBuffer {
 public:
  RecordBuffer();
  RecordBuffer(const RecordBuffer&) = delete;
  RecordBuffer& operator=(const RecordBuffer&) = delete;

  void add(PackageRecord&& record);
  std::size_t size() const { return records_.size(); }

  // The records a plan for `roots` can reach, in the order they were added: every record that
  // has or provides a root name, and every record of the family of one of those (they stand in
  // for one another); then every record that has or provides a name one of their depends
  // alternatives names, transitively. Constrains and conflicts pull nothing in.
  std::vector<std::uint32_t> closure(const std::vector<std::string>& roots) const;

  PackageRecord get(std::uint32_t index) const;

 private:
  struct Compact {
    std::uint32_t name, version, arch;
    std::uint32_t build, origin;  // offsets into raw_ (unique per record: not interned)
    std::uint32_t build_number, track_features;
    std::uint32_t lists;  // offset into ints_ of: provides, depends, conflicts, constrains
    std::uint32_t family, set;
    bool installed;
  };

  std::uint32_t intern(std::string_view s);
  std::uint32_t raw(std::string_view s);
  std::string_view text(std::uint32_t id) const { return strings_.at(id); }
  std::string_view raw_text(std::uint32_t offset) const;
  void put_deps(const std::vector<NativeDep>& deps);
  std::vector<NativeDep> get_deps(std::uint32_t& at) const;

  StringIndex strings_;  // interned: names, versions, relation texts
  std::string raw_;      // length-prefixed strings that are not interned
  std::vector<Compact> records_;
  std::vector<std::uint32_t> ints_;
};

}  // namespace extdeps::solve
