// A conda channel's index of one subdir, repodata.json (plain or .zst), streamed into records:
// one PackageRecord per package file, a .conda file winning over the .tar.bz2 of the same stem.
// The file is never held whole: conda-forge's linux-64 index is ~250 MB of JSON.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "core/json/byte_source.h"
#include "core/model/record.h"
#include "core/util/result.h"

namespace extdeps::conda {

// One index on disk: the fetcher's copy of <channel>/<subdir>/repodata.json or .json.zst, or a
// local file.
struct RepodataFile {
  std::string channel_url;  // "https://conda.anaconda.org/conda-forge"
  std::string subdir;       // "linux-64", "noarch"
  std::string path;
  // The URL it was downloaded from: what errors name, and what a damaged copy is forgotten
  // under. Empty for a file named directly (errors then name the path).
  std::string url;
};

struct RepodataOptions {
  // The URL of the folder the index describes ("https://conda.anaconda.org/conda-forge/linux-64/"):
  // package URLs, each record's origin, are file names appended to it, or to the index's
  // info.base_url resolved against it (CEP 15). Empty: the folder of the file, or of the
  // buffer's name.
  std::string location;
  // The arch of records that name no subdir, where the index's info names none either.
  std::string subdir;
};

struct RepodataSummary {
  std::string subdir;        // info.subdir, empty when absent
  std::string base_url;      // what package file names were appended to
  int repodata_version = 0;  // 0 when the file does not say (it is then version 1)
  std::size_t records = 0;   // handed to the sink
  std::size_t replaced = 0;  // .tar.bz2 records dropped for the .conda of the same stem
};

// Every record of the index, in this order: "packages.conda", then "packages" without the stems
// already seen. A record: name, version, build, build_number, depends (one DepAlternatives
// of one NativeDep per entry: {name, DepOp::spec, "rest"}, or DepOp::any without a rest),
// constrains (the same form), track_features (how many), arch = its subdir ("linux-64",
// "noarch"), origin = its package URL. Virtual packages (__glibc, __cuda ...) stay as named.
//
// Errors (ExitCode::environment: a damaged index) name the input and the byte offset, and say
// what was expected: "<file>: unexpected ']' at byte offset 812 (expected a JSON value)". Records
// may have reached the sink before an error is found.
Result<RepodataSummary> read_repodata(json::ByteSource& source, const RepodataOptions& options, const RecordSink& sink);

// The same for a file (".zst": zstd) and for bytes in memory (`name`'s ".zst" means zstd; it
// names the bytes in errors). A file's `name` (default: its path) does the same for a download
// kept in the cache under a hashed name: its URL.
Result<RepodataSummary> read_repodata_file(const std::string& path, const RepodataOptions& options,
                                           const RecordSink& sink, const std::string& name = {});
Result<RepodataSummary> read_repodata_buffer(std::string_view data, const std::string& name,
                                             const RepodataOptions& options, const RecordSink& sink);

// What package file names are appended to: `base_url` (absolute, or relative to `location` as
// URLs resolve: "../noarch/", "/mirror/linux-64/") or, when empty, `location` itself. Ends with
// '/' unless empty.
std::string package_base_url(std::string_view location, std::string_view base_url);

}  // namespace extdeps::conda
