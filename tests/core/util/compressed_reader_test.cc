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
  for (int i = 0; i < 200000; ++i) text += "<package type=\"rpm\"><name>pkg" + std::to_string(i) + "</name></package>\n";
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
  for (std::size_t i = data.size() / 3; i < data.size() / 3 + 64; ++i) damaged[i] = static_cast<char>(damaged[i] ^ 0x5a);
  auto bad = CompressedReader::over(damaged, "bad.xml.bz2");
  auto e2 = read_all(*bad);
  ASSERT_FALSE(e2.ok());
  EXPECT_NE(e2.error().message.find("corrupt"), std::string::npos) << e2.error().message;
  EXPECT_NE(e2.error().message.find("byte offset"), std::string::npos) << e2.error().message;

  auto notbz = CompressedReader::over("BZh9 this is not bzip2 data at all", "x.bz2");
  EXPECT_FALSE(read_all(*notbz).ok());
}

}  // namespace
}  // namespace extdeps
