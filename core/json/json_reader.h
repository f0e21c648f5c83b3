// A strict, streaming JSON pull reader for the providers' indexes (RFC 8259): the caller walks
// objects and arrays, reads the few values it needs and skips the rest without copying them. Why
// not nlohmann::json: its SAX parser alone takes about twice as long as this reader building every
// record, too slow for conda-forge's 250 MB linux-64 index (providers/conda/README.md, "Speed")
// or a nixpkgs packages.json.
//
// Errors are sticky: after the first one every call returns false and error() says what
// happened, naming the input and the byte offset.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/json/byte_source.h"
#include "core/util/result.h"

namespace extdeps::json {

enum class JsonKind { object, array, string, number, boolean, null };

// "an object", "a string", ... for messages.
std::string_view json_kind_name(JsonKind kind);

class JsonReader {
 public:
  explicit JsonReader(ByteSource& source) : source_(source) {}

  // The kind of the next value (whitespace skipped); nullopt at the end of the data, on a byte
  // that starts no value, or after an error (then a syntax error is recorded too).
  std::optional<JsonKind> peek();
  // Where the next unread byte is, in the (decompressed) data: after peek(), the value's start.
  std::uint64_t offset() const { return chunk_offset_ + static_cast<std::uint64_t>(pos_ - begin_); }

  bool begin_object();
  // The next member's key (the value is then read or skipped by the caller); false when the
  // object ends, or on an error.
  bool next_key(std::string& key);
  // The same, the key as a view that stays valid until the next call on the reader: into the
  // data where it can be, so that most keys are not copied.
  bool next_key(std::string_view& key);
  bool begin_array();
  // Whether another element follows (the caller then reads or skips it); false when the array
  // ends, or on an error.
  bool next_element();

  bool read_string(std::string& out);
  // The same as a view, valid until the next call on the reader (not copied where it can be).
  bool read_string(std::string_view& out);
  // A number: its text, and its value when it is a non-negative integer without fraction or
  // exponent that fits 64 bits (else nullopt, which the caller reports in its own words).
  bool read_number(std::string& text, std::optional<std::uint64_t>& value);
  bool read_null();
  bool read_bool(bool& out);
  bool skip_value();
  // Only whitespace may follow the top-level value.
  bool expect_end();

  // Goes on reading at `offset` (the start of a value seen earlier), outside any container.
  bool seek(std::uint64_t offset);

  // Records an error of the caller's ("... is a string at byte offset N (expected ...)"): the
  // message is prefixed with the input's name. Returns false.
  // The error, as data too: the source (file or URL) and byte offset as its place, what was
  // expected there when the caller knows.
  bool fail(std::string_view message, std::optional<std::uint64_t> at_offset = std::nullopt,
            std::string_view expected = {});
  // fail() for a value of the wrong kind at the current offset: "WHAT is a string at byte
  // offset N (expected EXPECTED)".
  bool wrong_kind(std::string_view what, JsonKind found, std::string_view expected);
  // A version or count field: `value` when the next value is a non-negative integer, else
  // nullopt; `text` quotes it for a message (the number as written, or "a string"); `start` is
  // where it began. False only on a syntax error.
  bool read_count(std::optional<std::uint64_t>& value, std::string& text, std::uint64_t& start);
  // " at byte offset N", saying for compressed input that it counts decompressed bytes.
  std::string at(std::uint64_t offset) const;
  bool failed() const { return error_.has_value(); }
  const Error& error() const { return *error_; }

 private:
  bool fill();
  int peek_byte() {
    if (pos_ == end_ && !fill()) return -1;
    return static_cast<unsigned char>(*pos_);
  }
  int peek_nonspace();
  bool expect(char c, std::string_view expected);
  bool at_key();
  bool unexpected(std::string_view expected);
  bool scan_string(std::string* out);
  bool scan_escape(std::string* out);
  bool scan_hex4(unsigned& out);
  bool scan_number(std::string* text, std::uint64_t& value, bool& fits);
  bool scan_literal(std::string_view word);

  ByteSource& source_;
  const char* begin_ = nullptr;  // the current chunk
  const char* pos_ = nullptr;
  const char* end_ = nullptr;
  std::uint64_t chunk_offset_ = 0;  // offset of begin_ in the data
  bool ended_ = false;
  // Open containers: '{' or '[', and whether a member or element was read in it yet.
  struct Open {
    char kind;
    bool first;
  };
  std::vector<Open> open_;
  std::optional<Error> error_;
  std::string scratch_;  // a key or string that spans chunks or has escapes
};

}  // namespace extdeps::json
