// `extdeps mappings ...`: the tools for the people who keep the mapping tables (docs/
// maintainers.md). lint (exit 1 with file:line:col on a problem), coverage (id x ecosystem, text or
// --json), verify (every name against a real index: this machine's apt lists, or a conda
// channel's repodata), import (PEP 804 JSON, rosdep YAML) and export (PEP 804 JSON).
#pragma once

#include <iosfwd>
#include <memory>

#include "core/context/context.h"

namespace CLI {
class App;
}

namespace extdeps::cli {

class MappingsCommand {
 public:
  // Adds `mappings` and its subcommands to the app; the object must outlive parsing.
  explicit MappingsCommand(CLI::App& app);
  ~MappingsCommand();
  // Whether the command line asked for one of them.
  bool selected() const;
  int run(Context& ctx, std::ostream& out, std::ostream& err);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace extdeps::cli
