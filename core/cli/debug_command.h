// `extdeps debug replay DIR`: a testcase that `extdeps resolve --dump-testcase DIR` wrote (on
// any machine) solved again by libsolv alone, without the indexes, and compared with the result
// recorded there. Exit 0 when the result is the same, 1 when it differs, 2 when DIR holds no
// testcase.
#pragma once

#include <iosfwd>
#include <string>

namespace extdeps::cli {

int cmd_debug_replay(const std::string& dir, bool json, std::ostream& out, std::ostream& err);

}  // namespace extdeps::cli
