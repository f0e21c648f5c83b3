// Reading a file that must be a file: opened without blocking (a FIFO answers at once), checked
// with fstat to be a regular file (not a FIFO, device, socket or directory), bounded in size, and
// for paths extdeps did not get from the user (under a root, a cache, a testcase folder) opened
// without following a last-component symlink (O_NOFOLLOW). docs/limits.md.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "core/util/result.h"

namespace extdeps {

enum class Links { follow, refuse };

// The whole file at `path`, at most max_bytes. Errors (ExitCode::environment unless given):
// "PATH: cannot be read (No such file or directory)", "PATH: is a FIFO, not a regular file",
// "PATH: is larger than N bytes", "PATH: is a symbolic link, which is not followed here".
Result<std::string> read_regular_file(const std::string& path, std::size_t max_bytes, Links links,
                                      ExitCode code = ExitCode::environment);

// The same, but nullopt where nothing is at `path` (it, or a folder on the way, does not exist).
Result<std::optional<std::string>> read_regular_file_if_present(const std::string& path, std::size_t max_bytes,
                                                                Links links, ExitCode code = ExitCode::environment);

// A small file under a root (/sys/module/nvidia/version, /var/lib/dpkg/arch): its text read as
// read_regular_file reads it (at most 1 MiB, links followed), or "" when it is absent, not a
// regular file or larger.
std::string read_small_file_or_empty(const std::string& path);

// A descriptor of `path` for a reader of its own (an index, a cache body): opened as above and
// checked to be a regular file, then blocking again. Errors: "PATH: cannot open: No such file
// or directory", "PATH: is a FIFO, not a regular file", "PATH: is a symbolic link, ...".
Result<int> open_regular_file(const std::string& path, Links links, ExitCode code = ExitCode::environment);

}  // namespace extdeps
