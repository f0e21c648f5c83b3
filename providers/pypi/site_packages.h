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

// Requirements as record relations: "name" for any version, {name, spec, ">=1,<2"} otherwise.
std::vector<DepAlternatives> relations_of(const std::vector<std::string>& requires_dist, const declare::MarkerEnv& env);

}  // namespace extdeps::pypi
