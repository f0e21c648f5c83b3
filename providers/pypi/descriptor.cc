// The pypi provider as the rest of extdeps sees it (core/provider/descriptor.h).
#include <algorithm>

#include "core/fetch/cache_names.h"
#include "core/mapping/names.h"
#include "core/version/version.h"
#include "providers/pypi/host_format.h"
#include "providers/pypi/pypi_provider.h"

namespace extdeps::pypi {

namespace {

// A project name as PyPI normalises it (PEP 503): lower case letters and digits, runs of them
// joined by single '-' ("nvidia-cublas-cu12", not "Nvidia_CuBLAS").
bool is_pypi_name(std::string_view s) {
  if (s.empty() || s.front() == '-' || s.back() == '-' || s.find("--") != std::string_view::npos) return false;
  return std::all_of(s.begin(), s.end(),
                     [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'; });
}

// What a crawl read (crawl_memo.h): <16 hex>.crawl, sealed.
bool crawl_memo_file(const std::string& path, std::string_view name) {
  return cache_names::sealed_hex_file(path, name, ".crawl", "pypc");
}

// What an interpreter said about itself (interpreter.cc); .tmp.<pid> while it is written.
bool interpreter_file(const std::string&, std::string_view name) { return cache_names::hex_json_file(name, ".tmp."); }

std::optional<std::string> name_problem(std::string_view name) {
  if (is_pypi_name(name)) return std::nullopt;
  return "'" + mapping::printable(name) +
         "' is not a normalised PyPI project name (lower case letters, digits, single '-')";
}

}  // namespace

const ProviderDescriptor& descriptor() {
  static const ProviderDescriptor d{
      .name = "pypi",
      .ecosystem = "pypi",
      .manager = "pypi",
      .manager_aliases = {},
      .scheme = &version::pep440_scheme,
      .summary = "wheels on PyPI and other PEP 691/503 indexes for the target interpreter; pip or uv commands",
      .name_problem = name_problem,
      .options =
          {
              {.name = "index-url",
               .value_name = "URL",
               .help = "Python package index (default: $PIP_INDEX_URL, else PyPI)",
               .env = {"PIP_INDEX_URL"},
               .kind = OptionKind::path_or_url},
              {.name = "extra-index-url",
               .value_name = "URL",
               .help = "another Python package index (repeatable)",
               .list = true,
               .env = {"PIP_EXTRA_INDEX_URL"},
               .env_separators = " \t\n",
               .kind = OptionKind::path_or_url},
              {.name = "pypi-frontend",
               .value_name = "pip|uv",
               .help = "what the plan's pypi step runs (default: pip where the interpreter has it, else uv)",
               .config_key = "pypi-frontend",
               .env = {"EXTDEPS_PYPI_FRONTEND"},
               .kind = OptionKind::choice,
               .choices = {"pip", "uv"}},
          },
      .reads_env = {},
      .verify_index = nullptr,
      .verify_reads = "",
      .host_formats = {{"uv", "the variable uv reads", uv_variables}},
      .cache_folders = {{"pypi/interpreters", interpreter_file}, {"pypi/crawls", crawl_memo_file}},
      .make = [](const Context& ctx, const ProviderSettings& settings) { return make_provider(ctx, settings); },
  };
  return d;
}

}  // namespace extdeps::pypi
