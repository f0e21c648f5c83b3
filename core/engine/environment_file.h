// `extdeps resolve --format NAME` for a format a provider renders (nix: shell.nix, flake.nix):
// the plan's packages of that provider's manager as a file its users keep in the project.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/context/context.h"
#include "core/plan/plan.h"
#include "core/provider/provider.h"
#include "core/util/result.h"

namespace extdeps::engine {

// The provider that renders `format`; null for no format (text and json are the CLI's own). Bad
// input for a format no provider renders; an error when that provider is not in use here.
Result<const Provider*> environment_renderer(const Context& ctx,
                                             const std::vector<std::unique_ptr<Provider>>& providers,
                                             const std::string& format);

// Every need the renderer's manager meets (installed or planned) goes into the file; needs other
// managers meet, and those not met, are named in it.
Result<std::string> render_environment(const Provider& renderer, const plan::Outcome& outcome,
                                       const std::string& format, const std::string& declaration);

}  // namespace extdeps::engine
