// The pypi provider as the rest of extdeps sees it (core/provider/descriptor.h).
#include "core/mapping/names.h"
#include "providers/pypi/pypi_provider.h"

namespace extdeps::pypi {

const ProviderDescriptor& descriptor() {
  static const ProviderDescriptor d{
      .name = "pypi",
      .ecosystem = "pypi",
      .manager = "pypi",
      .manager_aliases = {},
      .scheme = VersionScheme::pep440,
      .summary = "wheels on PyPI and other PEP 691/503 indexes for the target interpreter; pip or uv commands",
      .name_problem = mapping::pypi_name_problem,
      .options =
          {
              {.name = "index-url",
               .value_name = "URL",
               .help = "Python package index (default: $PIP_INDEX_URL, else PyPI)",
               .env = {"PIP_INDEX_URL"}},
              {.name = "extra-index-url",
               .value_name = "URL",
               .help = "another Python package index (repeatable)",
               .list = true,
               .env = {"PIP_EXTRA_INDEX_URL"},
               .env_separators = " \t\n"},
              {.name = "pypi-frontend",
               .value_name = "pip|uv",
               .help = "what the plan's pypi step runs (default: pip where the interpreter has it, else uv)",
               .config_key = "pypi-frontend",
               .env = {"EXTDEPS_PYPI_FRONTEND"}},
          },
      .reads_env = {},
      .verify_index = nullptr,
      .verify_reads = "",
      .make = [](const Context& ctx, const ProviderSettings& settings) { return make_provider(ctx, settings); },
  };
  return d;
}

}  // namespace extdeps::pypi
