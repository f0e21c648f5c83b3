// What a conda environment has installed: one conda-meta/<name>-<version>-<build>.json per
// package, written by conda, mamba, micromamba and pixi alike.
#pragma once

#include <string>
#include <vector>

#include "core/model/record.h"
#include "core/util/result.h"

namespace extdeps::conda {

struct InstalledPackage {
  // installed = true; arch = its subdir; origin = the conda-meta file.
  PackageRecord record;
  std::string channel;  // as recorded: "https://conda.anaconda.org/conda-forge/osx-arm64"
  std::string fn;       // "python-3.13.2-hfd29fff_1_cp313t.conda"
  std::string url;      // the package file it was installed from
};

// Whether `prefix` is a conda environment: it has a conda-meta folder.
bool is_conda_prefix(const std::string& prefix);

// Every <prefix>/conda-meta/*.json, sorted by file name; other files there (history, pinned)
// are not read. A file that cannot be read or parsed is an error naming it
// (ExitCode::environment), as is a prefix without conda-meta.
Result<std::vector<InstalledPackage>> read_prefix(const std::string& prefix);

// One conda-meta file.
Result<InstalledPackage> read_conda_meta(const std::string& path);

}  // namespace extdeps::conda
