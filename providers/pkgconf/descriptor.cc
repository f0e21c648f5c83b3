// The pkgconf detector as the rest of extdeps sees it (core/provider/descriptor.h).
#include "providers/pkgconf/pkgconf_provider.h"

namespace extdeps::pkgconf {

const ProviderDescriptor& descriptor() {
  static const ProviderDescriptor d{
      .name = "pkgconf",
      .ecosystem = "pkgconfig",
      .manager = "",
      .manager_aliases = {},
      .scheme = VersionScheme::rpm,
      .summary = "pkg-config modules installed on the machine (libpkgconf); a detector, installs nothing",
      .name_problem = nullptr,
      .options = {},
      .reads_env = {"PKG_CONFIG_PATH", "PKG_CONFIG_LIBDIR"},
      .verify_index = nullptr,
      .verify_reads = "",
      .make = [](const Context& ctx, const ProviderSettings&) { return make_provider(ctx); },
  };
  return d;
}

}  // namespace extdeps::pkgconf
