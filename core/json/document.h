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
// offset, as a syntax error is.
std::optional<DocumentError> parse_document(std::string_view text, nlohmann::json& out);

// A JSON value as text for output (--json, API strings): invalid UTF-8 becomes U+FFFD.
std::string dump(const nlohmann::json& value, int indent = 2);

// The value of `key` in `object` when it is a string, else nullopt; never throws.
std::optional<std::string> string_at(const nlohmann::json& object, std::string_view key);

}  // namespace extdeps::json
