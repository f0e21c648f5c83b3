#include "providers/dnf/rpm_upstream.h"

namespace extdeps::dnf {

std::string rpm_upstream(std::string_view v) {
  // An epoch is digits before the first ':'; a version holds no ':' of its own.
  if (auto colon = v.find(':'); colon != std::string_view::npos && colon > 0 &&
                                v.substr(0, colon).find_first_not_of("0123456789") == std::string_view::npos)
    v.remove_prefix(colon + 1);
  // The release follows the last '-': neither version nor release may hold one (rpm refuses it).
  if (auto dash = v.rfind('-'); dash != std::string_view::npos) v = v.substr(0, dash);
  // A snapshot after a release: what precedes '^' is that release.
  if (auto caret = v.find('^'); caret != std::string_view::npos) v = v.substr(0, caret);
  return std::string(v);
}

}  // namespace extdeps::dnf
