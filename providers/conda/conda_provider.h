// The conda provider: what conda channels offer (their repodata.json indexes, read from local
// files the fetcher keeps) and what a conda environment has installed (<prefix>/conda-meta), in
// conda's own names, versions and build strings; commands for conda, mamba, micromamba or pixi.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/provider/provider.h"
#include "providers/conda/channels.h"
#include "providers/conda/repodata.h"

namespace extdeps::conda {

enum class Frontend { conda, mamba, micromamba, pixi };
std::string_view frontend_name(Frontend frontend);
std::optional<Frontend> parse_frontend(std::string_view name);

// `chosen` (the conda-frontend option: --conda-frontend, EXTDEPS_CONDA_FRONTEND, a file's
// conda-frontend, checked by config::load) when it names one, else the first of mamba,
// micromamba, conda and pixi found on PATH (read through the Context, used as given), else conda.
Frontend choose_frontend(const Context& ctx, std::string_view chosen = {});

struct ProviderOptions {
  std::vector<Channel> channels;       // in priority order: what commands pass with -c
  std::vector<RepodataFile> repodata;  // what load() reads as available packages
  std::string prefix;                  // --prefix; empty: $CONDA_PREFIX
  std::optional<Frontend> frontend;    // empty: the first on PATH (choose_frontend)
};

struct CommandOptions {
  Frontend frontend = Frontend::conda;
  std::string prefix;             // -p PREFIX; empty: the tool's active environment
  std::vector<Channel> channels;  // --override-channels -c NAME ...; none: the tool's own
};

// The exact spec of one package: "name=version=build" (conda, mamba and micromamba read it as
// that version and build exactly), "name==version" without a build, and always for pixi, whose
// manifest pins versions, not builds.
std::string package_spec(Frontend frontend, std::string_view name, std::string_view version, std::string_view build);

// One step for all packages, never elevated (an environment belongs to its user):
//   conda|mamba|micromamba install -y [-p PREFIX] [--override-channels -c NAME ...] SPEC ...
//   pixi add SPEC ...        (pixi reads its channels from the workspace manifest)
// No command for no packages. The argv is not quoted; plan::shell_line quotes it for people.
std::vector<Command> install_commands(const std::vector<PlannedPackage>& packages, const CommandOptions& options);

// ecosystem "conda-forge" (its mapping table is mappings/conda-forge.toml), manager "conda",
// scheme conda. available() when index files are configured, a prefix is given, or
// $CONDA_PREFIX is a conda environment.
std::unique_ptr<Provider> make_provider(const Context& ctx, ProviderOptions options);

// As registered: used when settings name the conda manager, or give a prefix, or $CONDA_PREFIX
// is a conda environment; else not available, and it reads nothing. prepare() downloads the
// indexes of the channels (--channel, EXTDEPS_CONDA_CHANNELS, [tool.extdeps] conda-channels,
// .condarc, conda-forge) for the machine's subdir and noarch; the environment is --prefix, else
// $CONDA_PREFIX.
std::unique_ptr<Provider> make_provider(const Context& ctx, const ProviderSettings& settings);

}  // namespace extdeps::conda
