// What the target interpreter has installed: every *.dist-info/METADATA and *.egg-info (a folder
// with PKG-INFO, or a PKG-INFO file itself) in its site-packages folders, as installed records.
#pragma once

#include <string>
#include <vector>

#include "core/declare/declare.h"
#include "core/model/record.h"
#include "core/util/result.h"

namespace extdeps::pypi {

// One record per distribution (the first folder that has it wins, as on sys.path): name
// normalised, version, Requires-Dist that hold in `env` as DepOp::spec relations, origin the
// metadata file. Folders that do not exist are skipped; a metadata file that cannot be read or
// parsed is an error naming it.
Result<std::vector<PackageRecord>> read_site_packages(const std::vector<std::string>& site_dirs,
                                                      const declare::MarkerEnv& env);

// The stats the installed set is keyed on: each metadata folder's name and mtime, per folder.
std::string site_packages_identity(const std::vector<std::string>& site_dirs);

// Where an installed distribution put what a build looks for, from its dist-info RECORD (paths
// relative to the site folder): the folders of its shared libraries, its include folders, its
// executables' folders, and for a CUDA toolkit wheel (nvidia/cuda_nvcc) the folder above the bin
// that holds nvcc. Absolute paths; none when there is no RECORD (an egg-info).
struct InstalledFiles {
  std::vector<std::string> lib_dirs, include_dirs, bin_dirs;
  std::string cuda_root;
};
InstalledFiles installed_files(const std::string& metadata_path);

// Requirements as record relations: "name" for any version, {name, spec, ">=1,<2"} otherwise.
std::vector<DepAlternatives> relations_of(const std::vector<std::string>& requires_dist, const declare::MarkerEnv& env);

}  // namespace extdeps::pypi
