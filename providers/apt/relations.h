// Parsing one relationship field of a deb822 stanza ("libc6 (>= 2.34), a | b:any [amd64] <!nocheck>")
// into views of the text, without copying. Internal to the apt provider.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/model/record.h"

namespace extdeps::apt {

struct Relation {
  std::string_view name;
  std::string_view arch_qualifier;  // after ':' ("any", "native", "i386"); empty when none
  DepOp op = DepOp::any;
  std::string_view version;
};

// Relations of one field, flattened: group g holds rels[group_end[g-1] .. group_end[g]).
struct Relations {
  std::vector<Relation> rels;
  std::vector<std::uint32_t> group_end;
  void clear() {
    rels.clear();
    group_end.clear();
  }
};

enum class RelationField : std::uint8_t { depends, pre_depends, provides, conflicts, breaks };

std::string_view relation_field_name(RelationField field);

struct RelationError {
  size_t offset = 0;    // into the field's value, for the line number
  std::string message;  // "<what> (expected <what>)"
  std::string what;     // the same, as parts
  std::string expected;
};

// Parses `value` (which may span continuation lines). Alternatives with [arch restrictions] that
// exclude `record_arch`, or with <build profiles> that need a profile, are dropped, as dpkg does
// when no build profile is active. Returns false with `error` set on malformed text.
bool parse_relations(std::string_view value, RelationField field, std::string_view record_arch, Relations& out,
                     RelationError& error);

}  // namespace extdeps::apt
