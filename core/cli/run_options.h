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
  bool no_cache = false;  // --no-cache
  bool no_guess = false;  // --no-guess: an id no table maps stays unmapped
};

// The request with the flags that are negative on the command line applied.
inline engine::Request request_of(const RunOptions& o) {
  engine::Request r = o.request;
  r.use_cache = !o.no_cache;
  r.guess = !o.no_guess;
  return r;
}

}  // namespace extdeps::cli
