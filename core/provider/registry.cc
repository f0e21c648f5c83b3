// The one place providers are registered, in default preference order.
#include "core/detect/os_release.h"
#include "core/provider/provider.h"

#ifdef EXTDEPS_HAVE_PROVIDER_APT
#include "providers/apt/apt_provider.h"
#endif
#ifdef EXTDEPS_HAVE_PROVIDER_PKGCONF
#include "providers/pkgconf/pkgconf_provider.h"
#endif
#ifdef EXTDEPS_HAVE_PROVIDER_CONDA
#include "providers/conda/conda_provider.h"
#endif

namespace extdeps {

Result<std::unique_ptr<SpecMatcher>> Provider::compile_spec(std::string_view spec) const {
  return bad_input("the " + std::string(manager().empty() ? ecosystem() : manager()) +
                   " provider has no match expressions ('" + std::string(spec) + "')");
}

std::vector<std::unique_ptr<Provider>> make_providers(const Context& ctx) {
  std::vector<std::unique_ptr<Provider>> out;
#ifdef EXTDEPS_HAVE_PROVIDER_APT
  out.push_back(apt::make_provider(ctx));
#endif
#ifdef EXTDEPS_HAVE_PROVIDER_PKGCONF
  out.push_back(pkgconf::make_provider(ctx));
#endif
#ifdef EXTDEPS_HAVE_PROVIDER_CONDA
  // Not available without a conda environment or index files (providers/conda/README.md).
  out.push_back(conda::make_provider(ctx));
#endif
  return out;
}

}  // namespace extdeps
