// The one place providers are registered, in default preference order.
#include <algorithm>

#include "core/detect/os_release.h"
#include "core/mapping/names.h"
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
#ifdef EXTDEPS_HAVE_PROVIDER_PYPI
#include "providers/pypi/pypi_provider.h"
#endif
#ifdef EXTDEPS_HAVE_PROVIDER_NIX
#include "providers/nix/nix_provider.h"
#endif

namespace extdeps {

Result<std::unique_ptr<SpecMatcher>> Provider::compile_spec(std::string_view spec) const {
  return bad_input("the " + std::string(manager().empty() ? ecosystem() : manager()) +
                   " provider has no match expressions ('" + std::string(spec) + "')");
}

Result<void> Provider::prepare(const Context&, fetch::Fetcher&) { return {}; }

Result<std::string> Provider::render_environment(const EnvironmentRequest& request) const {
  return bad_input("the " + std::string(manager().empty() ? ecosystem() : manager()) + " provider renders no " +
                   request.format);
}
void Provider::add_build_env(const Context&, const InstalledRef&, BuildEnv&) const {}

std::optional<std::string> Provider::command_problem(const PlannedPackage& p) const {
  if (auto n = mapping::name_problem(manager(), p.name)) return n;
  if (auto v = mapping::argument_problem("version", p.version)) return v;
  return mapping::argument_problem("build string", p.build);
}

bool ProviderSettings::names(std::string_view manager) const {
  return std::find(managers.begin(), managers.end(), manager) != managers.end();
}

bool wanted(const Provider& provider, const Context& ctx, const ProviderSettings& settings) {
  if (!provider.manager().empty() && !settings.managers.empty() && !settings.names(provider.manager()))
    return false;
  return provider.available(ctx);
}

std::vector<std::unique_ptr<Provider>> make_providers(const Context& ctx, const ProviderSettings& settings) {
  std::vector<std::unique_ptr<Provider>> out;
#ifdef EXTDEPS_HAVE_PROVIDER_APT
  out.push_back(apt::make_provider(ctx));
#endif
#ifdef EXTDEPS_HAVE_PROVIDER_PKGCONF
  out.push_back(pkgconf::make_provider(ctx));
#endif
#ifdef EXTDEPS_HAVE_PROVIDER_CONDA
  // Used when named in --manager, or in an active conda environment (providers/conda/README.md).
  out.push_back(conda::make_provider(ctx, settings));
#endif
#ifdef EXTDEPS_HAVE_PROVIDER_PYPI
  // Used only when named in --manager (providers/pypi/README.md).
  out.push_back(pypi::make_provider(ctx, settings));
#endif
#ifdef EXTDEPS_HAVE_PROVIDER_NIX
  // Used when named in --manager or given an index (--nix-index); providers/nix/README.md.
  out.push_back(nix::make_provider(ctx, settings));
#endif
  return out;
}

}  // namespace extdeps
