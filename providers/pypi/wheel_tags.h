// Wheel file names (PEP 427) and compatibility tags (PEP 425, PEP 600, PEP 656): which wheels an
// interpreter on this platform can install, and how much it prefers each. The glibc a manylinux
// wheel needs is not a matter of tags here: it becomes a requirement on the host's __glibc, so
// that a machine with too old a glibc is told so instead of seeing no wheel at all.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/util/result.h"

namespace extdeps::pypi {

struct WheelName {
  std::string distribution;  // as in the file name ("nvidia_cublas_cu12")
  std::string version;       // "12.4.5.8"
  std::string build;         // the optional build tag ("1", "2_abc"); empty when absent
  // The expanded tag set: "py2.py3-none-any" is py2-none-any and py3-none-any.
  std::vector<std::string> python, abi, platform;
};

// "nvidia_cublas_cu12-12.4.5.8-py3-none-manylinux2014_x86_64.whl". Errors say what is wrong.
Result<WheelName> parse_wheel_filename(std::string_view filename);

// The glibc a manylinux platform tag needs: manylinux_2_17_x86_64 -> (2, 17); the legacy
// manylinux1 (2.5), manylinux2010 (2.12) and manylinux2014 (2.17). nullopt for other tags.
std::optional<std::pair<int, int>> manylinux_glibc(std::string_view platform_tag);
// The musl of a musllinux_1_2_x86_64 tag: (1, 2).
std::optional<std::pair<int, int>> musllinux_version(std::string_view platform_tag);

// What the tags are computed for: the interpreter and the platform.
struct TagTarget {
  std::string implementation = "cp";  // "cp" (CPython), "pp" (PyPy); from sys.implementation
  int major = 3, minor = 12;
  std::string abi;                     // the interpreter's own ABI tag: "cp312", "cp313t"; empty: none
  bool abi3 = true;                    // CPython builds (not free-threaded) accept abi3 wheels
  std::string arch;                    // uname -m spelling: x86_64, aarch64, i686, ppc64le, s390x
  std::string libc = "glibc";          // "glibc" or "musl"
  int musl_major = 1, musl_minor = 2;  // for musllinux
};

// The tags the target installs, best first, as packaging.tags.sys_tags orders them: the
// interpreter's own ABI, abi3, none, then abi3 of every older CPython down to cp32, on each
// platform; then py3X-none (py3X, py3, py3X-1 ... py30) on each platform; then "any". Platforms
// for glibc: every manylinux_2_Y from 2_50 down to 2_5 (2_17 outside x86), each legacy name
// (manylinux2014, 2010, 1) after the glibc it stands for, then linux_<arch>; for musl:
// musllinux_1_Y down to 1_0, then linux_<arch>. Unlike packaging, tags for a newer glibc than
// the host's are listed too: what glibc a wheel needs is a requirement in the solve.
std::vector<std::string> compatible_tags(const TagTarget& target);

// The best (lowest) index in `tags` of any tag the wheel carries; nullopt when it carries none.
class TagRanker {
 public:
  explicit TagRanker(const std::vector<std::string>& tags);
  std::optional<std::size_t> rank(const WheelName& wheel) const;

 private:
  std::vector<std::string> tags_;
  std::vector<std::pair<std::string, std::size_t>> sorted_;  // tag -> index, for lookups
};

}  // namespace extdeps::pypi
