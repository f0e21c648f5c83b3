// HostFacts as JSON: the object `extdeps detect --json` prints (schema/detect.schema.json) and the
// facts part of the on-disk cache.
#pragma once

#include <nlohmann/json.hpp>

#include "core/detect/host.h"
#include "core/util/result.h"

namespace extdeps::detect {

nlohmann::json to_json(const HostFacts& facts);
// Reads what to_json wrote; a field of the wrong type is an error, never an exception.
Result<HostFacts> host_facts_from_json(const nlohmann::json& j);

// "no-library" -> CudaState::no_library.
std::optional<CudaState> parse_cuda_state(std::string_view name);

}  // namespace extdeps::detect
