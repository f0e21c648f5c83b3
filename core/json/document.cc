// nlohmann::json behind a wall of values (document.h).
#include "core/json/document.h"

#include "core/util/limits.h"
#include "core/util/text.h"

namespace extdeps::json {

namespace {

// nlohmann's what(): "[json.exception.parse_error.101] parse error at line 1, column 5: syntax
// error ...": the part after the last ": " prefix that names the place.
std::string description(const nlohmann::json::exception& e) {
  std::string what = e.what();
  if (auto close = what.find("] "); close != std::string::npos) what = what.substr(close + 2);
  if (auto colon = what.find(": "); colon != std::string::npos && what.rfind("parse error", 0) == 0)
    what = what.substr(colon + 2);
  return lower_first(shorten(what));
}

// A SAX consumer that builds nothing and remembers where the parser gave up: nlohmann reports a
// number out of range through parse_error with its position, but the exception the DOM parser
// then throws (out_of_range.406) carries no offset.
struct Locator : nlohmann::json_sax<nlohmann::json> {
  std::size_t position = 0;
  std::string token;
  bool null() override { return true; }
  bool boolean(bool) override { return true; }
  bool number_integer(number_integer_t) override { return true; }
  bool number_unsigned(number_unsigned_t) override { return true; }
  bool number_float(number_float_t, const string_t&) override { return true; }
  bool string(string_t&) override { return true; }
  bool binary(binary_t&) override { return true; }
  bool start_object(std::size_t) override { return true; }
  bool key(string_t&) override { return true; }
  bool end_object() override { return true; }
  bool start_array(std::size_t) override { return true; }
  bool end_array() override { return true; }
  bool parse_error(std::size_t pos, const std::string& last_token, const nlohmann::detail::exception&) override {
    position = pos;
    token = last_token;
    return false;
  }
};

}  // namespace

std::optional<std::size_t> nested_deeper_than(std::string_view text, std::size_t limit) {
  std::size_t depth = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') ++i;
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > limit) return i;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return std::nullopt;
}

nlohmann::json parse_or_discarded(std::string_view text) {
  if (nested_deeper_than(text, limits::kMaxJsonDepth)) return nlohmann::json(nlohmann::json::value_t::discarded);
  return nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
}

std::optional<DocumentError> parse_document(std::string_view text, nlohmann::json& out) {
  if (auto at = nested_deeper_than(text, limits::kMaxJsonDepth))
    return DocumentError{
        *at, "arrays and objects nested deeper than " + std::to_string(limits::kMaxJsonDepth) + " (docs/limits.md)"};
  try {
    out = nlohmann::json::parse(text);
    return std::nullopt;
  } catch (const nlohmann::json::parse_error& e) {
    // nlohmann counts from 1; offsets in extdeps's messages count from 0, as in the JSON reader.
    return DocumentError{e.byte ? e.byte - 1 : 0, description(e)};
  } catch (const nlohmann::json::exception& e) {
    Locator where;
    nlohmann::json::sax_parse(text, &where, nlohmann::json::input_format_t::json, /*strict=*/true);
    const std::size_t start = where.position >= where.token.size() ? where.position - where.token.size() : 0;
    return DocumentError{start, description(e)};
  }
}

std::string dump(const nlohmann::json& value, int indent) {
  return value.dump(indent, ' ', /*ensure_ascii=*/false, nlohmann::json::error_handler_t::replace);
}

std::optional<std::string> string_at(const nlohmann::json& object, std::string_view key) {
  if (!object.is_object()) return std::nullopt;
  auto it = object.find(std::string(key));
  if (it == object.end() || !it->is_string()) return std::nullopt;
  return it->get<std::string>();
}

}  // namespace extdeps::json
