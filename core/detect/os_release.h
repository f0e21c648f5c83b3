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

// This machine's architecture as uname names it (x86_64, aarch64, ppc64le), or as
// EXTDEPS_OVERRIDE_ARCH does (read through machine_named, so amd64 and arm64 are taken too);
// x86_64 where uname names none. A provider that names CPUs its own way maps from this.
std::string machine(const Context& ctx);

// An architecture's name in uname's form: "amd64" and "x86_64" -> "x86_64", "arm64" -> "aarch64",
// "armhf" -> "armv7l", "ppc64el" -> "ppc64le"; a name it does not know, as it is.
std::string machine_named(std::string_view arch);

}  // namespace extdeps::detect
