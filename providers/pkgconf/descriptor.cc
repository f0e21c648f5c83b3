// The pkgconf detector as the rest of extdeps sees it (core/provider/descriptor.h).
#include "providers/pkgconf/pkgconf_provider.h"
#include "providers/pkgconf/pkgconfig_version.h"

namespace extdeps::pkgconf {

namespace {

// A pkg-config module of the project's name, without and with "lib". A .pc file proves headers,
// not what runs, and Python modules have none.
std::vector<mapping::GuessForm> guess(const mapping::GuessSubject& s) {
  if (s.category == Category::run || s.type == "pypi") return {};
  const std::string name(s.name), base = mapping::without_lib(name);
  return {{name, "a pkg-config module of that name"},
          {base, "a pkg-config module of that name without 'lib'"},
          {"lib" + base, "a pkg-config module of that name with 'lib'"}};
}

}  // namespace

const ProviderDescriptor& descriptor() {
  static const ProviderDescriptor d{
      .name = "pkgconf",
      .ecosystem = "pkgconfig",
      .manager = "",
      .manager_aliases = {},
      .scheme = &version::pkgconfig_scheme,
      .summary = "pkg-config modules installed on the machine (libpkgconf); a detector, installs nothing",
      .name_problem = nullptr,
      .guess = guess,
      .options = {},
      .reads_env = {"PKG_CONFIG_PATH", "PKG_CONFIG_LIBDIR"},
      .verify_index = nullptr,
      .verify_reads = "",
      .make = [](const Context& ctx, const ProviderSettings&) { return make_provider(ctx); },
  };
  return d;
}

}  // namespace extdeps::pkgconf
