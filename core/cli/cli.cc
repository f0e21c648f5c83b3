#include "core/cli/cli.h"

#include <ostream>

namespace extdeps::cli {

int run(Context&, const std::vector<std::string>&, std::ostream&, std::ostream& err) {
  err << "error: the command line is being written\n";
  return 2;
}

}  // namespace extdeps::cli
