// `extdeps show DEPURL`: what each mapping table maps a DepURL to, and what would meet it here
// per category (engine::show), as text or JSON. Exit 1 when no table knows it or a category has
// no plan here, as resolve would say for that need.
// `extdeps show PACKAGE` (a word that is no DepURL: libpq-dev): the ids whose entries name that
// native package or pkg-config module, per ecosystem. `extdeps search WORD`: the ids whose id,
// aliases, names or notes hold the word. Both exit 1 when nothing is found.
#pragma once

#include <iosfwd>
#include <string>

#include "core/context/context.h"
#include "core/engine/engine.h"

namespace extdeps::cli {

struct ShowOptions {
  engine::ShowRequest request;
  bool json = false;
  bool no_cache = false;
};

int cmd_show(Context& ctx, const ShowOptions& options, std::ostream& out, std::ostream& err);
int cmd_search(Context& ctx, const ShowOptions& options, std::ostream& out, std::ostream& err);

}  // namespace extdeps::cli
