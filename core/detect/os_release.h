// Facts about the host that the planner needs now: /etc/os-release and the architecture.
// (The full detection layer, with the GPU driver, is core/detect/ as it grows.)
#pragma once

#include <string>
#include <vector>

#include "core/context/context.h"
#include "core/util/result.h"

namespace extdeps::detect {

struct OsRelease {
  std::string id;                    // debian, ubuntu
  std::vector<std::string> id_like;  // [debian]
  std::string version_id;            // 12
  std::string version_codename;      // bookworm; a derivative's UBUNTU_CODENAME (Mint: noble)
  std::string pretty_name;
  // The ecosystems to try for mapping tables, most specific first: ID, then each ID_LIKE.
  std::vector<std::string> ecosystems() const;
};

// Reads <root>/etc/os-release, falling back to <root>/usr/lib/os-release. A missing file gives an
// empty OsRelease (not an error); a malformed line is skipped as os-release(5) says.
OsRelease read_os_release(const Context& ctx);

// The dpkg-style name of this machine's architecture: amd64, arm64, i386, ... from the context's uname,
// overridable with EXTDEPS_OVERRIDE_ARCH.
std::string dpkg_architecture(const Context& ctx);

}  // namespace extdeps::detect
