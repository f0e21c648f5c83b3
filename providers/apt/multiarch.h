// How one record's names are qualified under dpkg's Multi-Arch model (README.md, "Multi-Arch"):
// native and arch:all records keep plain names, foreign ones become "name:arch", and their
// relations are rewritten so that one flat namespace of names serves every architecture.
// Internal to the apt provider.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/model/record.h"
#include "providers/apt/apt_provider.h"
#include "providers/apt/relations.h"

namespace extdeps::apt {

enum class MultiArch : std::uint8_t { no, same, foreign, allowed };

class ArchNaming {
 public:
  // `record_arch` must be the native arch, "all", or one of archs.foreign.
  ArchNaming(const Architectures& archs, std::string_view record_arch, MultiArch multi_arch);

  // "gcc" for native and arch:all records, "gcc:i386" for a foreign one.
  std::string own_name(std::string_view package) const;
  // Pre-Depends and Depends: unqualified names take the record's arch, ":any" stays, ":native"
  // becomes the plain name.
  void add_depends(const Relations& rels, std::vector<DepAlternatives>& out) const;
  // Provides in the record's arch; M-A: foreign records also provide their name and their
  // Provides for every other arch, M-A: allowed ones provide "name:any", all at their version.
  void add_provides(std::string_view package, std::string_view version, const Relations& rels,
                    std::vector<NativeDep>& out) const;
  // Conflicts and Breaks without a qualifier hold against every architecture, as in dpkg.
  void add_conflicts(const Relations& rels, std::vector<NativeDep>& out) const;

 private:
  std::string qualify(std::string_view name, std::string_view arch) const;

  const Architectures& archs_;
  std::string_view arch_;  // the record's arch, with "all" read as native
  MultiArch multi_arch_;
};

}  // namespace extdeps::apt
