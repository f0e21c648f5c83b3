// The one place the CLI renders an error (issue 15 part 5): "error: " and its line on stderr,
// made printable; for a command asked for JSON, the error as data on stdout too
// (schema/error.schema.json). Returns the exit code the error carries.
// Also how messages for people look in this run (--color, NO_COLOR, --quiet): set once after
// the command line is parsed, back to plain at the start of the next run.
#pragma once

#include <iosfwd>
#include <string_view>

#include "core/util/result.h"

namespace extdeps::cli {

struct Style {
  bool colour = false;       // "error:" red, "warning:" yellow (ANSI SGR), on stderr
  bool plan_colour = false;  // a plan for people on stdout: each need's status, its warnings and errors
  bool quiet = false;        // no warnings or notes
};
void set_style(Style s);
const Style& style();

int fail(std::ostream& err, const Error& e, std::ostream* json_out = nullptr);

// "warning: TEXT" on err, coloured where the style says so; nothing when quiet.
void warn(std::ostream& err, std::string_view text);
// The "warning: TEXT" line Context::warn hands its sink, coloured where the style says so.
std::string coloured_warning(std::string_view line);

}  // namespace extdeps::cli
