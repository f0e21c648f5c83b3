// The reader walks the current chunk with a pointer and asks the source for the next chunk only
// when a token runs past its end, so strings and numbers may span chunks. Nesting is tracked in
// a vector, never on the call stack: deep input cannot overflow it.
#include "core/json/json_reader.h"

#include <cstdio>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace extdeps::json {

namespace {

bool is_space(int c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }
bool is_digit(int c) { return c >= '0' && c <= '9'; }

int hex_value(int c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

void append_utf8(std::string& out, unsigned cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

// The first '"', '\\' or control character in [p, end), or end: 16 bytes a step where SSE2 is
// at hand (every x86-64), then byte by byte. Strings are most of an index (hashes, file names,
// relations), so this loop is most of the reading.
const char* find_string_stop(const char* p, const char* end) {
#if defined(__SSE2__)
  const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\'), below_space = _mm_set1_epi8(0x1F);
  while (end - p >= 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    __m128i hit = _mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash));
    hit = _mm_or_si128(hit, _mm_cmpeq_epi8(_mm_min_epu8(v, below_space), v));  // unsigned v <= 0x1F
    if (const int mask = _mm_movemask_epi8(hit)) return p + __builtin_ctz(static_cast<unsigned>(mask));
    p += 16;
  }
#endif
  while (p < end) {
    const auto c = static_cast<unsigned char>(*p);
    if (c == '"' || c == '\\' || c < 0x20) break;
    ++p;
  }
  return p;
}

}  // namespace

std::string_view json_kind_name(JsonKind kind) {
  switch (kind) {
    case JsonKind::object: return "an object";
    case JsonKind::array: return "an array";
    case JsonKind::string: return "a string";
    case JsonKind::number: return "a number";
    case JsonKind::boolean: return "a boolean";
    case JsonKind::null: return "null";
  }
  return "a value";
}

bool JsonReader::fill() {
  if (ended_ || error_) return false;
  chunk_offset_ += static_cast<std::uint64_t>(end_ - begin_);
  begin_ = pos_ = end_ = nullptr;
  auto chunk = source_.next();
  if (!chunk) {
    error_ = chunk.error();
    return false;
  }
  if (chunk->empty()) {
    ended_ = true;
    return false;
  }
  begin_ = pos_ = chunk->data();
  end_ = begin_ + chunk->size();
  return true;
}

int JsonReader::peek_nonspace() {
  while (true) {
    while (pos_ < end_ && is_space(static_cast<unsigned char>(*pos_))) ++pos_;
    if (pos_ < end_) return static_cast<unsigned char>(*pos_);
    if (!fill()) return -1;
  }
}

std::string JsonReader::at(std::uint64_t offset) const {
  return " at byte offset " + std::to_string(offset) + (source_.compressed() ? " of the decompressed data" : "");
}

bool JsonReader::fail(std::string_view message, std::optional<std::uint64_t> at_offset, std::string_view expected) {
  if (error_) return false;
  error_ = environment_error(source_.name() + ": " + std::string(message));
  error_->place = source_.name();
  if (at_offset)
    error_->place += ": byte " + std::to_string(*at_offset) + (source_.compressed() ? " of the decompressed data" : "");
  error_->what = std::string(message);
  error_->expected = std::string(expected);
  return false;
}

bool JsonReader::wrong_kind(std::string_view what, JsonKind found, std::string_view expected) {
  return fail(std::string(what) + " is " + std::string(json_kind_name(found)) + at(offset()) + " (expected " +
                  std::string(expected) + ")",
              offset(), expected);
}

bool JsonReader::read_count(std::optional<std::uint64_t>& value, std::string& text, std::uint64_t& start) {
  value.reset();
  auto kind = peek();
  if (!kind) return false;
  start = offset();
  if (*kind == JsonKind::number) return read_number(text, value);
  text = json_kind_name(*kind);
  return skip_value();
}

bool JsonReader::unexpected(std::string_view expected) {
  if (error_) return false;
  int c = peek_byte();
  if (error_) return false;
  if (c < 0)
    return fail(
        "data ends early" + at(offset()) + " (expected " + std::string(expected) + "; the file may be truncated)",
        offset(), expected);
  std::string what;
  if (c > 0x20 && c < 0x7f) {
    what = std::string("'") + static_cast<char>(c) + "'";
  } else {
    char hex[16];
    std::snprintf(hex, sizeof hex, "byte 0x%02x", c);
    what = hex;
  }
  return fail("unexpected " + what + at(offset()) + " (expected " + std::string(expected) + ")", offset(), expected);
}

bool JsonReader::expect(char c, std::string_view expected) {
  if (peek_nonspace() != c) return unexpected(expected);
  ++pos_;
  return true;
}

std::optional<JsonKind> JsonReader::peek() {
  switch (peek_nonspace()) {
    case '{': return JsonKind::object;
    case '[': return JsonKind::array;
    case '"': return JsonKind::string;
    case 't':
    case 'f': return JsonKind::boolean;
    case 'n': return JsonKind::null;
    case '-':
    case '0':
    case '1':
    case '2':
    case '3':
    case '4':
    case '5':
    case '6':
    case '7':
    case '8':
    case '9': return JsonKind::number;
    default: break;
  }
  unexpected("a JSON value");
  return std::nullopt;
}

bool JsonReader::begin_object() {
  if (!expect('{', "'{'")) return false;
  open_.push_back({'{', true});
  return true;
}

bool JsonReader::begin_array() {
  if (!expect('[', "'['")) return false;
  open_.push_back({'[', true});
  return true;
}

// Moves to the open object's next key: true with pos_ at its opening quote; false when the object
// ends here (then it is closed) or on an error.
bool JsonReader::at_key() {
  if (error_ || open_.empty() || open_.back().kind != '{') return false;
  int c = peek_nonspace();
  if (c == '}') {
    ++pos_;
    open_.pop_back();
    return false;
  }
  if (open_.back().first) {
    if (c != '"') return unexpected("a string key or '}'");
  } else {
    if (c != ',') return unexpected("',' or '}'");
    ++pos_;
    if (peek_nonspace() != '"') return unexpected("a string key");
  }
  return true;
}

bool JsonReader::next_key(std::string& key) {
  if (!at_key()) return false;
  key.clear();
  if (!scan_string(&key)) return false;
  if (!expect(':', "':' after the key")) return false;
  open_.back().first = false;
  return true;
}

bool JsonReader::next_key(std::string_view& key) {
  if (!at_key()) return false;
  // Most keys end, with their ':', inside the chunk: a view of them needs no copy.
  const char* start = pos_ + 1;
  const char* p = find_string_stop(start, end_);
  if (end_ - p >= 2 && p[0] == '"' && p[1] == ':') {
    key = std::string_view(start, static_cast<size_t>(p - start));
    pos_ = p + 2;
  } else {
    scratch_.clear();
    if (!scan_string(&scratch_)) return false;
    if (!expect(':', "':' after the key")) return false;
    key = scratch_;
  }
  open_.back().first = false;
  return true;
}

bool JsonReader::next_element() {
  if (error_ || open_.empty() || open_.back().kind != '[') return false;
  int c = peek_nonspace();
  if (c == ']') {
    ++pos_;
    open_.pop_back();
    return false;
  }
  if (!open_.back().first) {
    if (c != ',') return unexpected("',' or ']'");
    ++pos_;
  }
  open_.back().first = false;
  return true;
}

bool JsonReader::read_string(std::string& out) {
  out.clear();
  if (peek_nonspace() != '"') return unexpected("a string");
  return scan_string(&out);
}

bool JsonReader::read_string(std::string_view& out) {
  if (peek_nonspace() != '"') return unexpected("a string");
  const char* start = pos_ + 1;
  const char* p = find_string_stop(start, end_);
  if (p < end_ && *p == '"') {
    out = std::string_view(start, static_cast<size_t>(p - start));
    pos_ = p + 1;
    return true;
  }
  scratch_.clear();
  if (!scan_string(&scratch_)) return false;
  out = scratch_;
  return true;
}

bool JsonReader::read_number(std::string& text, std::optional<std::uint64_t>& value) {
  text.clear();
  value.reset();
  int c = peek_nonspace();
  if (c != '-' && !is_digit(c)) return unexpected("a number");
  std::uint64_t v = 0;
  bool fits = false;
  if (!scan_number(&text, v, fits)) return false;
  if (fits) value = v;
  return true;
}

bool JsonReader::read_null() { return peek_nonspace() == 'n' ? scan_literal("null") : unexpected("null"); }

bool JsonReader::read_bool(bool& out) {
  int c = peek_nonspace();
  if (c != 't' && c != 'f') return unexpected("true or false");
  out = c == 't';
  return scan_literal(out ? "true" : "false");
}

// pos_ is at the opening quote.
bool JsonReader::scan_string(std::string* out) {
  ++pos_;
  while (true) {
    const char* p = find_string_stop(pos_, end_);
    if (out) out->append(pos_, static_cast<size_t>(p - pos_));
    pos_ = p;
    if (p == end_) {
      if (!fill()) return unexpected("'\"' to end the string");
      continue;
    }
    if (*p == '"') {
      ++pos_;
      return true;
    }
    if (*p != '\\') return unexpected("'\"' to end the string; control characters must be escaped");
    ++pos_;
    if (!scan_escape(out)) return false;
  }
}

// pos_ is just after the backslash.
bool JsonReader::scan_escape(std::string* out) {
  int c = peek_byte();
  char plain = 0;
  switch (c) {
    case '"':
    case '\\':
    case '/': plain = static_cast<char>(c); break;
    case 'b': plain = '\b'; break;
    case 'f': plain = '\f'; break;
    case 'n': plain = '\n'; break;
    case 'r': plain = '\r'; break;
    case 't': plain = '\t'; break;
    case 'u': break;
    default: return unexpected("one of \" \\ / b f n r t u after '\\'");
  }
  ++pos_;
  if (plain) {
    if (out) *out += plain;
    return true;
  }
  std::uint64_t start = offset() - 2;  // the backslash
  unsigned cp = 0;
  if (!scan_hex4(cp)) return false;
  if (cp >= 0xDC00 && cp <= 0xDFFF)
    return fail("lone low surrogate in a \\u escape" + at(start) + " (expected a high surrogate before it)");
  if (cp >= 0xD800 && cp <= 0xDBFF) {
    if (peek_byte() != '\\') return unexpected("'\\u' and a low surrogate after a high surrogate");
    ++pos_;
    if (peek_byte() != 'u') return unexpected("'\\u' and a low surrogate after a high surrogate");
    ++pos_;
    unsigned low = 0;
    if (!scan_hex4(low)) return false;
    if (low < 0xDC00 || low > 0xDFFF)
      return fail("high surrogate without a low one in a \\u escape" + at(start) +
                  " (expected a low surrogate, \\udc00 to \\udfff, after it)");
    cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
  }
  if (out) append_utf8(*out, cp);
  return true;
}

bool JsonReader::scan_hex4(unsigned& out) {
  out = 0;
  for (int i = 0; i < 4; ++i) {
    int v = hex_value(peek_byte());
    if (v < 0) return unexpected("four hex digits after '\\u'");
    out = out * 16 + static_cast<unsigned>(v);
    ++pos_;
  }
  return true;
}

// pos_ is at '-' or a digit. `fits`: a non-negative integer without fraction or exponent that
// fits 64 bits, then in `value`.
bool JsonReader::scan_number(std::string* text, std::uint64_t& value, bool& fits) {
  auto take = [&](int c) {
    if (text) *text += static_cast<char>(c);
    ++pos_;
  };
  value = 0;
  fits = true;
  int c = peek_byte();
  if (c == '-') {
    fits = false;
    take(c);
    c = peek_byte();
  }
  if (c == '0') {
    take(c);
  } else if (is_digit(c)) {
    while (is_digit(c = peek_byte())) {
      std::uint64_t d = static_cast<std::uint64_t>(c - '0');
      if (value > (UINT64_MAX - d) / 10) fits = false;
      else value = value * 10 + d;
      take(c);
    }
  } else {
    return unexpected("a digit");
  }
  c = peek_byte();
  if (c == '.') {
    fits = false;
    take(c);
    if (!is_digit(c = peek_byte())) return unexpected("a digit after '.'");
    while (is_digit(c = peek_byte())) take(c);
  }
  if (c == 'e' || c == 'E') {
    fits = false;
    take(c);
    c = peek_byte();
    if (c == '+' || c == '-') {
      take(c);
      c = peek_byte();
    }
    if (!is_digit(c)) return unexpected("a digit in the exponent");
    while (is_digit(c = peek_byte())) take(c);
  }
  return !error_;
}

bool JsonReader::scan_literal(std::string_view word) {
  for (char w : word) {
    if (peek_byte() != static_cast<unsigned char>(w))
      return unexpected(std::string(1, '\'').append(word).append(1, '\''));
    ++pos_;
  }
  return true;
}

bool JsonReader::skip_value() {
  const size_t depth = open_.size();
  bool value_next = true;
  std::uint64_t ignored = 0;
  bool fits = false;
  while (true) {
    if (value_next) {
      auto kind = peek();
      if (!kind) return false;
      bool ok = true;
      switch (*kind) {
        case JsonKind::object: ok = begin_object(); break;
        case JsonKind::array: ok = begin_array(); break;
        case JsonKind::string: ok = scan_string(nullptr); break;
        case JsonKind::number: ok = scan_number(nullptr, ignored, fits); break;
        case JsonKind::boolean: ok = scan_literal(*pos_ == 't' ? "true" : "false"); break;
        case JsonKind::null: ok = scan_literal("null"); break;
      }
      if (!ok) return false;
    }
    if (open_.size() == depth) return true;
    // Inside a container this skip opened: its next member or element, or its end.
    if (open_.back().kind == '{') {
      if (!at_key()) {
        if (error_) return false;
        value_next = false;  // the object ended
        continue;
      }
      if (!scan_string(nullptr) || !expect(':', "':' after the key")) return false;
      open_.back().first = false;
      value_next = true;
    } else {
      value_next = next_element();
      if (error_) return false;
    }
  }
}

bool JsonReader::expect_end() {
  if (peek_nonspace() >= 0) return unexpected("the end of the data");
  return !error_;
}

bool JsonReader::seek(std::uint64_t offset) {
  if (error_) return false;
  if (auto r = source_.seek(offset); !r) {
    error_ = r.error();
    return false;
  }
  begin_ = pos_ = end_ = nullptr;
  chunk_offset_ = offset;
  ended_ = false;
  open_.clear();
  return true;
}

}  // namespace extdeps::json
