// One conda package record in JSON: a value of repodata.json's "packages" or "packages.conda",
// or a whole conda-meta/<name>.json file. Both share these keys; what else they hold (file
// lists, hashes, licences) is skipped without a copy. Internal to the conda provider.
#pragma once

#include <string>
#include <string_view>

#include "core/json/json_reader.h"
#include "core/model/record.h"

namespace extdeps::conda {

struct PackageJson {
  // name, version, build, build_number, depends, constrains and track_features; the caller
  // sets arch, origin and installed.
  PackageRecord record;
  std::string subdir;   // "linux-64", "noarch"; empty when absent or null
  std::string channel;  // conda-meta: "https://conda.anaconda.org/conda-forge/osx-arm64"
  std::string fn;       // conda-meta: the package file name
  std::string url;      // conda-meta: where the package file came from
};

// Reads the object at the reader's position into `out` (cleared first). `where` names it in
// messages (`packages.conda["numpy-1.26.4-py312h.conda"]`); empty for a conda-meta file, whose
// keys are then named alone. name, version and build must be there; the rest may be absent or
// null. Relations are split by split_name (providers/conda/matchspec.h); the rest is kept as
// the DepOp::spec text. On false the reader holds the error.
bool read_package(json::JsonReader& in, std::string_view where, PackageJson& out);

}  // namespace extdeps::conda
