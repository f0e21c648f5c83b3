// What the planning commands (resolve, check, install, env) take from the command line: the
// engine's request and how to print its answer.
#pragma once

#include <string>

#include "core/engine/engine.h"

namespace extdeps::cli {

struct RunOptions {
  engine::Request request;
  bool json = false;
  std::string format;  // --format: text, json, or an environment file a provider renders (shell.nix)
  bool explain = false;
};

// The request the command line filled (core/config/command_options.cc binds each flag to its field;
// --no-cache and --no-guess turn use_cache and guess off).
inline engine::Request request_of(const RunOptions& o) { return o.request; }

}  // namespace extdeps::cli
