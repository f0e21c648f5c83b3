// The providers' JSON reader: values, escapes and skipping, tokens that span chunks (a source
// that hands out one byte at a time), zstd and brotli input, and the exact syntax errors.
#include "core/json/json_reader.h"

#include <gtest/gtest.h>
#include <zstd.h>

#include <nlohmann/json.hpp>

#include "core/json/byte_source.h"
#include "tests/support/http_server.h"

namespace extdeps::json {
namespace {

// Hands out `size` bytes per chunk: every token of a test input then spans chunks.
class Trickle final : public ByteSource {
 public:
  Trickle(std::string data, size_t size) : ByteSource("trickle.json"), data_(std::move(data)), size_(size) {}
  Result<std::string_view> next() override {
    std::string_view out = std::string_view(data_).substr(pos_, size_);
    pos_ += out.size();
    return out;
  }
  Result<void> seek(std::uint64_t offset) override {
    pos_ = static_cast<size_t>(offset);
    return {};
  }
  bool compressed() const override { return false; }

 private:
  std::string data_;
  size_t size_;
  size_t pos_ = 0;
};

std::string zstd(const std::string& plain) {
  std::string out(ZSTD_compressBound(plain.size()), '\0');
  size_t n = ZSTD_compress(out.data(), out.size(), plain.data(), plain.size(), 3);
  EXPECT_FALSE(ZSTD_isError(n));
  out.resize(n);
  return out;
}

// Reads any value into nlohmann's DOM through the pull API, to compare with nlohmann's parse.
bool to_dom(JsonReader& in, nlohmann::json& out) {
  auto kind = in.peek();
  if (!kind) return false;
  std::string text;
  switch (*kind) {
    case JsonKind::object: {
      out = nlohmann::json::object();
      if (!in.begin_object()) return false;
      std::string key;
      while (in.next_key(key)) {
        nlohmann::json v;
        std::string k = key;
        if (!to_dom(in, v)) return false;
        out[k] = std::move(v);
      }
      return !in.failed();
    }
    case JsonKind::array: {
      out = nlohmann::json::array();
      if (!in.begin_array()) return false;
      while (in.next_element()) {
        nlohmann::json v;
        if (!to_dom(in, v)) return false;
        out.push_back(std::move(v));
      }
      return !in.failed();
    }
    case JsonKind::string:
      if (!in.read_string(text)) return false;
      out = text;
      return true;
    case JsonKind::number: {
      std::optional<std::uint64_t> value;
      if (!in.read_number(text, value)) return false;
      out = nlohmann::json::parse(text);
      return true;
    }
    case JsonKind::boolean:
    case JsonKind::null:
      // Only skip_value reads literals; which one it was is taken from the text.
      return in.skip_value() && (out = nullptr, true);
  }
  return false;
}

constexpr const char* kSample =
    R"({"name": "caf\u00e9 \"x\" \ud83d\ude00\t/\/", "n": [0, -1, 2.5e-3, 18446744073709551615, 18446744073709551616],)"
    R"( "deep": {"a": [[], {}, [{"b": null}]], "t": true, "f": false}, "empty": ""})";

TEST(JsonReader, ReadsValuesAndEscapesAcrossChunkBoundaries) {
  for (size_t chunk : {size_t{1}, size_t{2}, size_t{7}, size_t{1000}}) {
    Trickle src(kSample, chunk);
    JsonReader in(src);
    ASSERT_TRUE(in.begin_object());
    std::string key, text;
    ASSERT_TRUE(in.next_key(key));
    EXPECT_EQ(key, "name");
    ASSERT_TRUE(in.read_string(text));
    EXPECT_EQ(text, "caf\xc3\xa9 \"x\" \xf0\x9f\x98\x80\t//") << "chunk " << chunk;
    ASSERT_TRUE(in.next_key(key));
    EXPECT_EQ(key, "n");
    ASSERT_TRUE(in.begin_array());
    std::vector<std::string> texts;
    std::vector<std::optional<std::uint64_t>> values;
    while (in.next_element()) {
      std::optional<std::uint64_t> v;
      ASSERT_TRUE(in.read_number(text, v));
      texts.push_back(text);
      values.push_back(v);
    }
    EXPECT_EQ(texts, (std::vector<std::string>{"0", "-1", "2.5e-3", "18446744073709551615", "18446744073709551616"}));
    EXPECT_EQ(values, (std::vector<std::optional<std::uint64_t>>{0, std::nullopt, std::nullopt, 18446744073709551615ull,
                                                                 std::nullopt}));
    ASSERT_TRUE(in.next_key(key));
    EXPECT_EQ(key, "deep");
    std::uint64_t deep_at = in.offset();
    ASSERT_TRUE(in.skip_value());
    ASSERT_TRUE(in.next_key(key));
    EXPECT_EQ(key, "empty");
    ASSERT_TRUE(in.read_string(text));
    EXPECT_EQ(text, "");
    EXPECT_FALSE(in.next_key(key));
    EXPECT_TRUE(in.expect_end());
    EXPECT_FALSE(in.failed());

    // Back to a value seen before, as the repodata reader does for "packages".
    ASSERT_TRUE(in.seek(deep_at + 1));  // offset() was just after ':' and before the blank
    EXPECT_EQ(in.peek(), JsonKind::object);
    ASSERT_TRUE(in.begin_object());
    ASSERT_TRUE(in.next_key(key));
    EXPECT_EQ(key, "a");
  }
}

TEST(JsonReader, AgreesWithNlohmannOnTheSample) {
  Trickle src(kSample, 3);
  JsonReader in(src);
  nlohmann::json ours;
  ASSERT_TRUE(to_dom(in, ours)) << in.error().message;
  nlohmann::json theirs = nlohmann::json::parse(kSample);
  // Literals come back as null from to_dom; compare the rest.
  theirs["deep"]["t"] = nullptr;
  theirs["deep"]["f"] = nullptr;
  EXPECT_EQ(ours["name"], theirs["name"]);
  EXPECT_EQ(ours["deep"], theirs["deep"]);
  EXPECT_EQ(ours["n"][0], theirs["n"][0]);
  EXPECT_EQ(ours["n"][3], theirs["n"][3]);
}

TEST(JsonReader, DecompressesZstdInMemoryAndSeeksInTheDecompressedData) {
  std::string packed = zstd(kSample);
  auto src = over_memory(packed, "sample.json.zst");
  EXPECT_TRUE(src->compressed());
  JsonReader in(*src);
  ASSERT_TRUE(in.skip_value()) << in.error().message;
  EXPECT_TRUE(in.expect_end());
  ASSERT_TRUE(in.seek(std::string_view(kSample).find("\"deep\"")));
  std::string text;
  ASSERT_TRUE(in.read_string(text));
  EXPECT_EQ(text, "deep");
}

// The view overloads read what the copying ones do, whether a key or string lies inside one
// chunk (a view of the data), spans chunks or has escapes (a copy), or has blanks before its ':'.
TEST(JsonReader, ViewsOfKeysAndStringsAgreeWithCopiesAcrossChunkBoundaries) {
  const std::string doc = R"({"name": "zlib", "esc\"aped" : "a\u00e9\n", "depends": ["libgcc-ng >=12", "x"],)"
                          R"( "a-rather-long-key-of-forty-bytes-or-so!!" :"v", "": ""})";
  for (size_t chunk : {size_t{1}, size_t{2}, size_t{3}, size_t{5}, size_t{16}, size_t{17}, size_t{1000}}) {
    std::vector<std::string> copies, views;
    for (bool by_view : {false, true}) {
      Trickle src(doc, chunk);
      JsonReader in(src);
      auto& out = by_view ? views : copies;
      ASSERT_TRUE(in.begin_object());
      std::string key, text;
      std::string_view key_view, text_view;
      while (by_view ? in.next_key(key_view) : in.next_key(key)) {
        out.push_back(by_view ? std::string(key_view) : key);
        if (in.peek() == JsonKind::array) {
          ASSERT_TRUE(in.begin_array());
          while (in.next_element()) {
            ASSERT_TRUE(by_view ? in.read_string(text_view) : in.read_string(text)) << in.error().message;
            out.push_back(by_view ? std::string(text_view) : text);
          }
        } else {
          ASSERT_TRUE(by_view ? in.read_string(text_view) : in.read_string(text)) << in.error().message;
          out.push_back(by_view ? std::string(text_view) : text);
        }
      }
      ASSERT_FALSE(in.failed()) << in.error().message;
      EXPECT_TRUE(in.expect_end());
    }
    EXPECT_EQ(views, copies) << "chunk " << chunk;
    EXPECT_EQ(copies, (std::vector<std::string>{"name", "zlib", "esc\"aped", "a\xc3\xa9\n", "depends", "libgcc-ng >=12",
                                                "x", "a-rather-long-key-of-forty-bytes-or-so!!", "v", "", ""}))
        << "chunk " << chunk;
  }
  // The same errors through either overload.
  for (const char* bad : {R"({"a\x": 1})", R"({"a" 1})", "{\"a\n\": 1}", R"(["a)"}) {
    auto one = over_memory(bad, "in.json");
    auto two = over_memory(bad, "in.json");
    JsonReader a(*one), b(*two);
    std::string key;
    std::string_view view;
    if (bad[0] == '{') {
      ASSERT_TRUE(a.begin_object() && b.begin_object());
      EXPECT_FALSE(a.next_key(key));
      EXPECT_FALSE(b.next_key(view));
    } else {
      ASSERT_TRUE(a.begin_array() && b.begin_array() && a.next_element() && b.next_element());
      EXPECT_FALSE(a.read_string(key));
      EXPECT_FALSE(b.read_string(view));
    }
    ASSERT_TRUE(a.failed() && b.failed()) << bad;
    EXPECT_EQ(a.error().message, b.error().message);
  }
}

// A zstd stream of many decoder buffers is decoded on a thread ahead of the reader: every byte
// arrives in order, a seek (backwards and forwards) starts the decoding again, a cut stream
// fails after the data before it, and a reader dropped half way stops the thread.
TEST(JsonReader, ZstdDecodedAheadArrivesWholeAndInOrder) {
  std::string big = "[";
  for (int i = 0; i < 150000; ++i) big += (i ? ", " : "") + std::string(R"({"k": "value )") + std::to_string(i) + "\"}";
  big += "]";
  ASSERT_GT(big.size(), size_t{3} << 20);  // several 1 MiB chunks
  const std::string packed = zstd(big);
  {
    auto src = over_memory(packed, "big.json.zst");
    JsonReader in(*src);
    ASSERT_TRUE(in.begin_array());
    std::string_view key, text;
    int n = 0;
    while (in.next_element()) {
      ASSERT_TRUE(in.begin_object() && in.next_key(key) && in.read_string(text)) << in.error().message;
      ASSERT_EQ(text, "value " + std::to_string(n)) << "element " << n;
      ASSERT_FALSE(in.next_key(key));
      ++n;
    }
    ASSERT_FALSE(in.failed()) << in.error().message;
    EXPECT_EQ(n, 150000);
    EXPECT_TRUE(in.expect_end());
    for (int i : {140000, 7, 99999, 0}) {
      ASSERT_TRUE(in.seek(big.find("\"value " + std::to_string(i) + "\"")));
      ASSERT_TRUE(in.read_string(text)) << in.error().message;
      EXPECT_EQ(text, "value " + std::to_string(i));
    }
  }
  {
    auto src = over_memory(packed, "big.json.zst");
    JsonReader in(*src);
    ASSERT_TRUE(in.begin_array() && in.next_element());  // then dropped with the thread running
  }
  const std::string cut = packed.substr(0, packed.size() * 3 / 4);
  auto src = over_memory(cut, "big.json.zst");
  JsonReader in(*src);
  ASSERT_FALSE(in.skip_value());
  EXPECT_GT(in.offset(), big.size() / 2) << "the data before the damage was read";
  EXPECT_EQ(in.error().message, "big.json.zst: zstd data ends early at byte offset " + std::to_string(cut.size()) +
                                    " (expected the rest of the stream; the file may be truncated)");
}

std::string error_of(const std::string& text, const std::string& name = "in.json") {
  auto src = over_memory(text, name);
  JsonReader in(*src);
  if (in.skip_value() && in.expect_end()) return "(no error)";
  EXPECT_EQ(in.error().code, ExitCode::environment);
  return in.error().message;
}

TEST(JsonReader, SyntaxErrorsNameTheByteOffsetAndWhatWasExpected) {
  EXPECT_EQ(error_of(R"({"a": })"), "in.json: unexpected '}' at byte offset 6 (expected a JSON value)");
  EXPECT_EQ(error_of(R"({"a" 1})"), "in.json: unexpected '1' at byte offset 5 (expected ':' after the key)");
  EXPECT_EQ(error_of(R"({"a": 1 "b": 2})"), "in.json: unexpected '\"' at byte offset 8 (expected ',' or '}')");
  EXPECT_EQ(error_of(R"({"a": 1,})"), "in.json: unexpected '}' at byte offset 8 (expected a string key)");
  EXPECT_EQ(error_of(R"({a: 1})"), "in.json: unexpected 'a' at byte offset 1 (expected a string key or '}')");
  EXPECT_EQ(error_of("[1, 2,]"), "in.json: unexpected ']' at byte offset 6 (expected a JSON value)");
  EXPECT_EQ(error_of("[1 2]"), "in.json: unexpected '2' at byte offset 3 (expected ',' or ']')");
  EXPECT_EQ(error_of("[tru]"), "in.json: unexpected ']' at byte offset 4 (expected 'true')");
  EXPECT_EQ(error_of("[nul"), "in.json: data ends early at byte offset 4 (expected 'null'; the file may be truncated)");
  EXPECT_EQ(error_of("01"), "in.json: unexpected '1' at byte offset 1 (expected the end of the data)");
  EXPECT_EQ(error_of("[-]"), "in.json: unexpected ']' at byte offset 2 (expected a digit)");
  EXPECT_EQ(error_of("[1.]"), "in.json: unexpected ']' at byte offset 3 (expected a digit after '.')");
  EXPECT_EQ(error_of("[1e+]"), "in.json: unexpected ']' at byte offset 4 (expected a digit in the exponent)");
  EXPECT_EQ(error_of("\"a\nb\""),
            "in.json: unexpected byte 0x0a at byte offset 2 (expected '\"' to end the string; control characters "
            "must be escaped)");
  EXPECT_EQ(error_of(R"("\x")"),
            "in.json: unexpected 'x' at byte offset 2 (expected one of \" \\ / b f n r t u after '\\')");
  EXPECT_EQ(error_of(R"("\u12g4")"), "in.json: unexpected 'g' at byte offset 5 (expected four hex digits after '\\u')");
  EXPECT_EQ(error_of(R"(["ok", "\udc00"])"),
            "in.json: lone low surrogate in a \\u escape at byte offset 8 (expected a high surrogate before it)");
  EXPECT_EQ(error_of(R"("\ud83dx")"),
            "in.json: unexpected 'x' at byte offset 7 (expected '\\u' and a low surrogate after a high surrogate)");
  EXPECT_EQ(error_of(R"("\ud83d\u0041")"),
            "in.json: high surrogate without a low one in a \\u escape at byte offset 1 (expected a low surrogate, "
            "\\udc00 to \\udfff, after it)");
  EXPECT_EQ(error_of("{\"a\": \"unterminated"),
            "in.json: data ends early at byte offset 19 (expected '\"' to end the string; the file may be truncated)");
  EXPECT_EQ(error_of(""),
            "in.json: data ends early at byte offset 0 (expected a JSON value; the file may be truncated)");
  EXPECT_EQ(error_of("   \n"),
            "in.json: data ends early at byte offset 4 (expected a JSON value; the file may be truncated)");
  EXPECT_EQ(error_of("<html>"), "in.json: unexpected '<' at byte offset 0 (expected a JSON value)");
  EXPECT_EQ(error_of("{} x"), "in.json: unexpected 'x' at byte offset 3 (expected the end of the data)");
  EXPECT_EQ(error_of(std::string("[\"a\", \xff]")),
            "in.json: unexpected byte 0xff at byte offset 6 (expected a JSON value)");
}

TEST(JsonReader, CompressedInputSaysOffsetsCountDecompressedBytes) {
  std::string packed = zstd(R"({"a": })");
  EXPECT_EQ(error_of(packed, "in.json.zst"),
            "in.json.zst: unexpected '}' at byte offset 6 of the decompressed data (expected a JSON value)");
  std::string cut = packed.substr(0, packed.size() - 3);
  EXPECT_EQ(error_of(cut, "in.json.zst"), "in.json.zst: zstd data ends early at byte offset " +
                                              std::to_string(cut.size()) +
                                              " (expected the rest of the stream; the file may be truncated)");
  EXPECT_EQ(error_of(R"({"plain": "json"})", "plain.json.zst"),
            "plain.json.zst: corrupt zstd data at byte offset 0 (expected a valid zstd stream; Unknown frame "
            "descriptor)");
}

// A nixpkgs channel's packages.json.br: several decoder buffers of output, read and sought in.
TEST(JsonReader, DecompressesBrotliAcrossBuffersAndSeeksInTheDecompressedData) {
  if (!test::have_brotli()) GTEST_SKIP() << "the tests were built without libbrotlienc";
  std::string big = "[";
  for (int i = 0; i < 200000; ++i) big += (i ? ", " : "") + std::string(R"({"k": "value )") + std::to_string(i) + "\"}";
  big += "]";
  std::string packed = test::encode(test::Encoding::brotli, big);
  ASSERT_LT(packed.size(), big.size() / 10);
  auto src = over_memory(packed, "packages.json.br");
  EXPECT_TRUE(src->compressed());
  JsonReader in(*src);
  nlohmann::json dom;
  ASSERT_TRUE(to_dom(in, dom)) << in.error().message;
  EXPECT_TRUE(in.expect_end());
  EXPECT_EQ(dom, nlohmann::json::parse(big));
  // A seek decodes again from the start and drops what comes before.
  size_t at = big.find("\"value 123456\"");
  ASSERT_TRUE(in.seek(at));
  std::string text;
  ASSERT_TRUE(in.read_string(text)) << in.error().message;
  EXPECT_EQ(text, "value 123456");
}

TEST(JsonReader, BrotliErrorsNameTheCompressedOffset) {
  if (!test::have_brotli()) GTEST_SKIP() << "the tests were built without libbrotlienc";
  std::string packed = test::encode(test::Encoding::brotli, R"({"a": })");
  EXPECT_EQ(error_of(packed, "in.json.br"),
            "in.json.br: unexpected '}' at byte offset 6 of the decompressed data (expected a JSON value)");
  std::string long_text = "[";
  for (int i = 0; i < 5000; ++i) long_text += std::to_string(i * 7919 % 10007) + ",";
  long_text += "0]";
  std::string cut = test::encode(test::Encoding::brotli, long_text);
  cut.resize(cut.size() / 2);
  EXPECT_EQ(error_of(cut, "in.json.br"), "in.json.br: brotli data ends early at byte offset " +
                                             std::to_string(cut.size()) +
                                             " (expected the rest of the stream; the file may be truncated)");
  std::string bad = error_of(R"({"plain": "json"})", "plain.json.br");
  EXPECT_EQ(bad.rfind("plain.json.br: corrupt brotli data at byte offset ", 0), 0u) << bad;
  EXPECT_NE(bad.find("(expected a valid brotli stream; "), std::string::npos) << bad;
  EXPECT_EQ(error_of(packed + "junk", "in.json.br"),
            "in.json.br: corrupt brotli data at byte offset " + std::to_string(packed.size()) +
                " (expected a valid brotli stream; data follows the end of the stream)");
}

TEST(JsonReader, ReadsBooleans) {
  auto src = over_memory("[true, false, null]", "b.json");
  JsonReader in(*src);
  bool b = false;
  ASSERT_TRUE(in.begin_array());
  ASSERT_TRUE(in.next_element());
  ASSERT_TRUE(in.read_bool(b));
  EXPECT_TRUE(b);
  ASSERT_TRUE(in.next_element());
  ASSERT_TRUE(in.read_bool(b));
  EXPECT_FALSE(b);
  ASSERT_TRUE(in.next_element());
  EXPECT_FALSE(in.read_bool(b));
  EXPECT_EQ(in.error().message, "b.json: unexpected 'n' at byte offset 14 (expected true or false)");
}

TEST(JsonReader, DeepNestingIsAnErrorNotACrash) {
  std::string deep(200000, '[');
  EXPECT_EQ(error_of(deep),
            "in.json: data ends early at byte offset 200000 (expected a JSON value; the file may be "
            "truncated)");
  EXPECT_EQ(error_of(deep + std::string(200000, ']')), "(no error)");
}

TEST(JsonReader, FilesThatCannotBeOpenedAreNamed) {
  auto src = open_file("/nonexistent/repodata.json");
  ASSERT_FALSE(src.ok());
  EXPECT_EQ(src.error().message, "/nonexistent/repodata.json: cannot open: No such file or directory");
  EXPECT_EQ(src.error().code, ExitCode::environment);
}

}  // namespace
}  // namespace extdeps::json
