// The compilers on PATH (cc, c++, gfortran, rustc, nvcc) and their versions, read from the first
// lines of `--version`. nvcc is also looked for in /usr/local/cuda*/bin, where toolkits install it.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/context/context.h"
#include "core/detect/host.h"

namespace extdeps::detect {

// Looks each compiler up on ctx.env("PATH") (directories read through ctx.host_path) and runs it
// with --version, each limited to timeout_ms. A compiler that cannot be run is left out.
std::vector<Compiler> detect_compilers(const Context& ctx, int timeout_ms);

// The version in a `--version` output: "cc (Debian 12.2.0-14) 12.2.0" -> "12.2.0",
// "rustc 1.95.0 (…)" -> "1.95.0", "Debian clang version 14.0.6" -> "14.0.6",
// nvcc's "Cuda compilation tools, release 13.0, V13.0.48" -> "13.0.48". Empty when none is found.
std::string parse_compiler_version(std::string_view name, std::string_view version_output);

}  // namespace extdeps::detect
