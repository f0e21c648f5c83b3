// The pypi provider: wheels on a Python package index (PEP 691 / PEP 503, PyPI by default) that
// the target interpreter can install, with their dependencies from PEP 658 metadata, and what
// that interpreter has installed; commands for pip or uv.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/provider/provider.h"

namespace extdeps::pypi {

inline constexpr std::string_view kDefaultIndex = "https://pypi.org/simple";

enum class Frontend { pip, uv };

// The indexes: --index-url (else PIP_INDEX_URL, else PyPI), then every --extra-index-url (else
// PIP_EXTRA_INDEX_URL's blank-separated list).
std::vector<std::string> index_urls(const Context& ctx, const ProviderSettings& settings);

// The CUDA major release an NVIDIA wheel is built for (nvidia-cublas-cu12 -> 12; the CUDA 13
// wheels without a suffix -> their version's major); INT_MAX for a suffix past int
// (nvidia-x-cu99999999999: no driver has it); nullopt for a wheel that is not NVIDIA's CUDA.
std::optional<int> cuda_major_of(const std::string& name, const std::string& version);

// One step for all packages, never elevated (an interpreter's packages belong to its user):
//   PYTHON -m pip install [--index-url URL] [--extra-index-url URL ...] name==version ...
//   uv pip install --python PYTHON [--index-url URL] [--extra-index-url URL ...] name==version ...
// The index options appear only when the indexes are not PyPI alone.
std::vector<Command> install_commands(const std::vector<PlannedPackage>& packages, Frontend frontend,
                                      const std::string& python, const std::vector<std::string>& indexes);

// ecosystem and manager "pypi", scheme pep440. Used only when named (--manager pypi,...): a
// resolve that does not ask for it never starts an interpreter or reaches an index.
std::unique_ptr<Provider> make_provider(const Context& ctx, const ProviderSettings& settings);

}  // namespace extdeps::pypi
