// The shared decoders of core/util/compressed_reader: bzip2 (added for rpm-md's primary.xml.bz2),
// compressed with the real libbz2: by name and by its first bytes, concatenated streams, and
// damaged or cut input as errors that name the file and the offset.
#include "core/util/compressed_reader.h"

#include <bzlib.h>
#include <gtest/gtest.h>

#include <fstream>

#include "tests/test_support.h"

namespace extdeps {
namespace {

std::string bz2(const std::string& text) {
  std::string out(text.size() + text.size() / 100 + 600, '\0');
  unsigned len = static_cast<unsigned>(out.size());
  EXPECT_EQ(BZ2_bzBuffToBuffCompress(out.data(), &len, const_cast<char*>(text.data()),
                                     static_cast<unsigned>(text.size()), 9, 0, 0),
            BZ_OK);
  out.resize(len);
  return out;
}

std::string write(const std::string& name, const std::string& bytes) {
  const std::string path = test::temp_dir() + "/" + name;
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

std::string big_text() {
  std::string text;
  for (int i = 0; i < 200000; ++i)
    text += "<package type=\"rpm\"><name>pkg" + std::to_string(i) + "</name></package>\n";
  return text;
}

TEST(CompressedReaderBzip2, ByNameAndByMagic) {
  const std::string text = big_text();
  const std::string data = bz2(text);
  auto by_name = CompressedReader::open(write("primary.xml.bz2", data));
  ASSERT_TRUE(by_name.ok()) << by_name.error().message;
  auto all = read_all(**by_name);
  ASSERT_TRUE(all.ok()) << all.error().message;
  EXPECT_EQ(*all, text);
  auto sniffed = CompressedReader::open_sniffed(write("core.db", data));
  ASSERT_TRUE(sniffed.ok());
  EXPECT_EQ(*read_all(**sniffed), text);
}

TEST(CompressedReaderBzip2, ConcatenatedStreamsReadAsOne) {
  const std::string data = bz2("first\n") + bz2("second\n");  // over() reads it in place
  auto r = CompressedReader::over(data, "x.bz2");
  auto all = read_all(*r);
  ASSERT_TRUE(all.ok()) << all.error().message;
  EXPECT_EQ(*all, "first\nsecond\n");
}

TEST(CompressedReaderBzip2, DamagedAndCutInputAreErrors) {
  const std::string data = bz2(big_text());
  auto cut = CompressedReader::open(write("cut.xml.bz2", data.substr(0, data.size() / 2)));
  ASSERT_TRUE(cut.ok());
  auto e1 = read_all(**cut);
  ASSERT_FALSE(e1.ok());
  EXPECT_NE(e1.error().message.find("cut.xml.bz2"), std::string::npos) << e1.error().message;
  EXPECT_NE(e1.error().message.find("ends early"), std::string::npos) << e1.error().message;

  std::string damaged = data;
  for (std::size_t i = data.size() / 3; i < data.size() / 3 + 64; ++i)
    damaged[i] = static_cast<char>(damaged[i] ^ 0x5a);
  auto bad = CompressedReader::over(damaged, "bad.xml.bz2");
  auto e2 = read_all(*bad);
  ASSERT_FALSE(e2.ok());
  EXPECT_NE(e2.error().message.find("corrupt"), std::string::npos) << e2.error().message;
  EXPECT_NE(e2.error().message.find("byte offset"), std::string::npos) << e2.error().message;

  auto notbz = CompressedReader::over("BZh9 this is not bzip2 data at all", "x.bz2");
  EXPECT_FALSE(read_all(*notbz).ok());
}

// A prefetching reader (decoding on a thread of its own) gives the same bytes as the reader it
// wraps, whatever the caller's read sizes; an error comes after the good bytes, as the inner
// reader met it; and one dropped half-read stops its thread (the test ends, no hang).
TEST(CompressedReaderPrefetching, SameBytesSameErrorsAndStopsWhenDropped) {
  const std::string text = big_text();  // 13 MB: many 1 MiB chunks
  const std::string data = bz2(text);
  for (std::size_t step : {std::size_t{1} << 20, std::size_t{4096}, std::size_t{3} << 20}) {
    auto r = CompressedReader::prefetching(CompressedReader::over(data, "p.xml.bz2"));
    std::string got, buf(step, '\0');
    for (;;) {
      auto n = r->read(buf.data(), buf.size());
      ASSERT_TRUE(n.ok()) << n.error().message;
      if (*n == 0) break;
      got.append(buf.data(), *n);
    }
    EXPECT_EQ(got.size(), text.size()) << step;
    EXPECT_TRUE(got == text) << step;
  }
  // A real lz4 Packages list, and its truncated copy.
  auto plain = CompressedReader::open(test::data_path("apt/codecs/sample_Packages.lz4"));
  auto ahead = CompressedReader::open(test::data_path("apt/codecs/sample_Packages.lz4"));
  ASSERT_TRUE(plain.ok() && ahead.ok());
  auto a = read_all(**plain);
  auto b = read_all(*CompressedReader::prefetching(std::move(*ahead)));
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_GT(a->size(), 1000u);
  EXPECT_EQ(*a, *b);
  auto cut_plain = CompressedReader::open(test::data_path("apt/codecs/truncated_Packages.lz4"));
  auto cut_ahead = CompressedReader::open(test::data_path("apt/codecs/truncated_Packages.lz4"));
  ASSERT_TRUE(cut_plain.ok() && cut_ahead.ok());
  auto e1 = read_all(**cut_plain);
  auto e2 = read_all(*CompressedReader::prefetching(std::move(*cut_ahead)));
  ASSERT_FALSE(e1.ok());
  ASSERT_FALSE(e2.ok());
  EXPECT_EQ(e1.error().message, e2.error().message);
  // Dropped after one small read: its thread is stopped and joined.
  auto dropped = CompressedReader::prefetching(CompressedReader::over(data, "d.xml.bz2"));
  char one[16];
  ASSERT_TRUE(dropped->read(one, sizeof one).ok());
  dropped.reset();
}

}  // namespace
}  // namespace extdeps
