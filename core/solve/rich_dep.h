// rpm's boolean ("rich") dependencies, as rpm 4.13+ writes them and primary.xml keeps them:
// "(pkgA >= 1.2 and (pkgB or pkgC))", "(plugin if host)", "(a unless b else c)",
// "(libfoo with libfoo(x86-64))", "(a without b)". Parsed into a tree the pool builder turns into
// libsolv's REL_AND, REL_OR, REL_COND, REL_UNLESS, REL_ELSE, REL_WITH and REL_WITHOUT, and whose
// names the index pruning follows. No libsolv type here.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/model/record.h"
#include "core/util/result.h"

namespace extdeps::solve {

struct RichDep {
  enum class Op { atom, and_, or_, if_, unless, with, without };
  Op op = Op::atom;
  NativeDep atom;             // Op::atom: a name, maybe with an operator and an rpm version
  std::vector<RichDep> args;  // the operands: two or more for and, or, with; two for without;
                              // two or three (the else branch) for if and unless
};

// Parses one rich dependency; the whole text must be one parenthesised expression. An error
// says what was expected at which byte.
Result<RichDep> parse_rich_dep(std::string_view text);

// Every name the expression mentions, in order (with repeats).
void rich_names(const RichDep& dep, std::vector<std::string>& out);

}  // namespace extdeps::solve
