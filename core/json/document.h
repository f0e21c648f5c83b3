// Whole JSON documents (a PEP 691 page, a PEP 804 mapping file) through nlohmann::json, with its
// exceptions kept inside: every reader of such a document gets a value or the byte offset and
// what was wrong, never a json::exception (which would escape as an internal error). Also the
// one way JSON is written for people: invalid UTF-8 in a name read from somewhere is replaced,
// not thrown over.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace extdeps::json {

struct DocumentError {
  std::size_t offset = 0;  // from 0, at or just after the bad byte
  std::string what;        // lower-case, without nlohmann's "[json.exception...]" prefix
};

// Parses `text` whole into `out`. Numbers too large for a double (1e999) are an error at their
// offset, as a syntax error is, and so is nesting deeper than kMaxJsonDepth (core/util/limits.h).
std::optional<DocumentError> parse_document(std::string_view text, nlohmann::json& out);

// Parses `text` whole; a discarded value (is_discarded()) where it is not JSON or nests deeper
// than kMaxJsonDepth: for readers that say only "not JSON" (caches, a child's answer).
nlohmann::json parse_or_discarded(std::string_view text);

// The offset of the first `[` or `{` that opens level limit + 1 (outside strings), or nullopt.
// Parsing is iterative in nlohmann::json, but copying and dumping a value recurse: a document
// nested 300000 deep crashed the first copy of it.
std::optional<std::size_t> nested_deeper_than(std::string_view text, std::size_t limit);

// A JSON value as text for output (--json, API strings): invalid UTF-8 becomes U+FFFD.
std::string dump(const nlohmann::json& value, int indent = 2);

// The value of `key` in `object` when it is a string, else nullopt; never throws.
std::optional<std::string> string_at(const nlohmann::json& object, std::string_view key);

}  // namespace extdeps::json
