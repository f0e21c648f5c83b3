// The conda provider as the rest of extdeps sees it (core/provider/descriptor.h).
#include "core/fetch/fetch.h"
#include "core/fetch/options.h"
#include "core/mapping/names.h"
#include "core/mapping/verify.h"
#include "providers/conda/conda_provider.h"
#include "providers/conda/conda_version.h"
#include "providers/conda/host_format.h"
#include "providers/conda/matchspec.h"
#include "providers/conda/repodata.h"

namespace extdeps::conda {

namespace {

// `mappings verify` of a conda table: the names of the given repodata files or URLs.
Result<mapping::NameIndex> verify_index(Context& ctx, const VerifyInput& input) {
  if (input.sources.empty()) {
    return error_at(ExitCode::bad_input, "",
                    "verifying a conda table needs the channel's index: --repodata FILE or URL "
                    "(repeatable: linux-64 and noarch)");
  }
  fetch::FetchFlags flags;
  flags.offline = input.offline;
  auto fo = fetch::options_for(ctx, flags);
  if (!fo) return fo.error();
  fetch::Fetcher fetcher(ctx, *fo);
  mapping::NameIndex index;
  std::size_t records = 0;
  for (const auto& s : input.sources) {
    std::string path = s, name;
    if (s.find("://") != std::string::npos) {
      fetch::Request request;
      request.url = s;
      auto got = fetcher.fetch(request);
      if (!got) return got.error();
      path = got->body_path;
      name = s;
    }
    auto r = read_repodata_file(
        path, {},
        [&](PackageRecord&& rec) {
          ++records;
          index.names.insert(std::move(rec.name));
        },
        name);
    if (!r) return r.error();
  }
  index.description = std::to_string(input.sources.size()) +
                      (input.sources.size() == 1 ? " repodata (" : " repodata files (") + std::to_string(records) +
                      " records, " + std::to_string(index.names.size()) + " names)";
  return index;
}

// conda-forge's forms of a project's name: the name, and lib<name> for a library (not for a
// build tool). Python modules are PyPI's, not guessed here.
std::vector<mapping::GuessForm> guess(const mapping::GuessSubject& s) {
  if (s.type == "pypi") return {};
  const std::string name(s.name);
  std::vector<mapping::GuessForm> out{{name, "a package of that name"}};
  if (s.category != Category::build)
    out.push_back({"lib" + mapping::without_lib(name), "conda-forge's lib<name> form"});
  return out;
}

std::optional<std::string> name_problem(std::string_view name) {
  if (is_conda_name(name)) return std::nullopt;
  return "'" + std::string(name) + "' is not a valid conda package name (lower case letters, digits, - _ .)";
}

}  // namespace

const ProviderDescriptor& descriptor() {
  static const ProviderDescriptor d{
      .name = "conda",
      .ecosystem = "conda-forge",
      .manager = "conda",
      .manager_aliases = {"mamba", "micromamba"},
      .scheme = &version::conda_scheme,
      .summary = "conda channels' repodata and a conda environment; conda, mamba, micromamba or pixi commands",
      .name_problem = name_problem,
      .guess = guess,
      .pep804_managers = R"([{
        "name": "conda",
        "commands": {
          "install": {"command": ["conda", "install", "--yes", "--channel=conda-forge", "{}"]},
          "query": {"command": ["conda", "list", "-f", "{}"]}},
        "specifier_syntax": {
          "name_only": ["{name}"], "exact_version": ["{name}=={version}"],
          "version_ranges": {"syntax": ["{name}{ranges}"], "and": ",", "equal": "={version}",
                             "greater_than": ">{version}", "greater_than_equal": ">={version}",
                             "less_than": "<{version}", "less_than_equal": "<={version}"}}}, {
        "name": "mamba",
        "commands": {
          "install": {"command": ["mamba", "install", "--yes", "--channel=conda-forge", "{}"]},
          "query": {"command": ["mamba", "list", "-f", "{}"]}},
        "specifier_syntax": {
          "name_only": ["{name}"], "exact_version": ["{name}=={version}"],
          "version_ranges": {"syntax": ["{name}{ranges}"], "and": ",", "equal": "={version}",
                             "greater_than": ">{version}", "greater_than_equal": ">={version}",
                             "less_than": "<{version}", "less_than_equal": "<={version}"}}}, {
        "name": "micromamba",
        "commands": {
          "install": {"command": ["micromamba", "install", "--yes", "--channel=conda-forge", "{}"]},
          "query": {"command": ["micromamba", "list", "-f", "{}"]}},
        "specifier_syntax": {
          "name_only": ["{name}"], "exact_version": ["{name}=={version}"],
          "version_ranges": {"syntax": ["{name}{ranges}"], "and": ",", "equal": "={version}",
                             "greater_than": ">{version}", "greater_than_equal": ">={version}",
                             "less_than": "<{version}", "less_than_equal": "<={version}"}}}])",
      .options =
          {
              {.name = "channel",
               .value_name = "NAME",
               .help = "conda channel, name or URL (repeatable; default: conda-forge)",
               .list = true,
               .config_key = "conda-channels",
               .env = {"EXTDEPS_CONDA_CHANNELS"}},
              {.name = "prefix",
               .value_name = "DIR",
               .help = "conda environment whose packages are installed (default: $CONDA_PREFIX)",
               .kind = OptionKind::path},
              {.name = "conda-frontend",
               .value_name = "conda|mamba|micromamba|pixi",
               .help = "what the plan's conda step runs (default: the first of mamba, micromamba, conda and pixi on "
                       "PATH)",
               .config_key = "conda-frontend",
               .env = {"EXTDEPS_CONDA_FRONTEND"},
               .kind = OptionKind::choice,
               .choices = {"conda", "mamba", "micromamba", "pixi"}},
          },
      .reads_env = {"CONDA_PREFIX", "CONDA_SUBDIR", "HOME"},
      .verify_index = verify_index,
      .verify_reads = "conda repodata (conda tables)",
      .verify_index_flag = "repodata",
      // conda's overrides of its virtual packages (__cuda, __glibc): what a conda user has set
      // already states the machine for extdeps too.
      .fact_overrides = {{"cuda", "CONDA_OVERRIDE_CUDA"},
                         {"cuda-arch", "CONDA_OVERRIDE_CUDA_ARCH"},
                         {"glibc", "CONDA_OVERRIDE_GLIBC"}},
      .host_formats = {{"conda", "CONDA_OVERRIDE_* lines", conda_overrides}},
      .make = [](const Context& ctx, const ProviderSettings& settings) { return make_provider(ctx, settings); },
  };
  return d;
}

}  // namespace extdeps::conda
