// Reading index files through each codec apt keeps lists in, and the errors for truncated and
// corrupt streams (tests/data/apt/codecs: three real stanzas, compressed by each tool).
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>

#include "providers/apt/apt_provider.h"
#include "tests/providers/apt/apt_test_support.h"
#include "tests/test_support.h"

namespace extdeps::apt {
namespace {

using test::Collected;

const Architectures kAmd64{"amd64", {}};

std::string codec(const std::string& name) { return extdeps::test::data_path("apt/codecs/" + name); }

std::string read_error(const std::string& path) {
  auto r = read_index_file(path);
  if (r.ok()) return "(no error)";
  EXPECT_EQ(r.error().code, ExitCode::environment);
  return r.error().message;
}

class AptCodec : public ::testing::TestWithParam<std::string> {};

TEST_P(AptCodec, DecompressesToThePlainText) {
  std::string plain = extdeps::test::read_file(codec("sample_Packages"));
  ASSERT_EQ(plain.size(), 2098u);
  auto text = read_index_file(codec("sample_Packages" + GetParam()));
  ASSERT_TRUE(text.ok()) << text.error().message;
  EXPECT_EQ(*text, plain);

  Collected c;
  auto r = parse_index_file(codec("sample_Packages" + GetParam()), kAmd64, false, c.sink());
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(c.records.size(), 3u);
  EXPECT_EQ(c.records[0].name, "make");
  EXPECT_EQ(c.records[0].version, "4.3-4.1");
  EXPECT_EQ(c.records[2].name, "zlib1g-dev");
  EXPECT_EQ(c.records[2].origin, codec("sample_Packages" + GetParam()));
}

INSTANTIATE_TEST_SUITE_P(AptEachExtension, AptCodec, ::testing::Values("", ".lz4", ".gz", ".xz", ".zst"),
                         [](const auto& info) {
                           return info.param.empty() ? std::string("plain") : info.param.substr(1);
                         });

TEST(AptCodecErrors, TruncatedStreamsNameTheFileAndWhereTheyEnd) {
  for (const std::string ext : {"lz4", "gz", "xz", "zst"}) {
    std::string path = codec("truncated_Packages." + ext);
    std::string size = ext == "lz4" ? "700" : "600";
    std::string name = ext == "gz" ? "gzip" : ext == "zst" ? "zstd" : ext;
    EXPECT_EQ(read_error(path), path + ": " + name + " data ends early at byte offset " + size +
                                    " (expected the rest of the stream; the file may be truncated)");
  }
}

TEST(AptCodecErrors, CorruptStreamsNameTheFileAndTheByteOffset) {
  // Bytes 200..259 of each sample were XORed with 0x5a. The offset is where the decoder found the
  // damage: for lz4 and zstd, which are fed one block at a time, the start of the block it could
  // not decode (lz4's only block starts at 11) or of the checksum that failed (zstd's, at 1007).
  EXPECT_EQ(read_error(codec("corrupt_Packages.lz4")),
            codec("corrupt_Packages.lz4") +
                ": corrupt lz4 data at byte offset 11 (expected a valid lz4 stream; ERROR_decompressionFailed)");
  EXPECT_EQ(read_error(codec("corrupt_Packages.gz")),
            codec("corrupt_Packages.gz") +
                ": corrupt gzip data at byte offset 226 (expected a valid gzip stream; invalid distance too far back)");
  EXPECT_EQ(read_error(codec("corrupt_Packages.xz")),
            codec("corrupt_Packages.xz") +
                ": corrupt xz data at byte offset 213 (expected a valid xz stream; compressed data is corrupt)");
  EXPECT_EQ(read_error(codec("corrupt_Packages.zst")),
            codec("corrupt_Packages.zst") +
                ": corrupt zstd data at byte offset 1007 (expected a valid zstd stream; Restored data doesn't match "
                "checksum)");
}

// The same errors as data (core/util/data_errors.h): the place is the file and byte offset.
TEST(AptCodecErrors, CorruptAndTruncatedStreamsAreDataToo) {
  auto r = read_index_file(codec("corrupt_Packages.gz"));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().place, codec("corrupt_Packages.gz") + ": byte 226");
  EXPECT_EQ(r.error().what, "corrupt gzip data (invalid distance too far back)");
  EXPECT_EQ(r.error().expected, "a valid gzip stream");
  r = read_index_file(codec("truncated_Packages.zst"));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().place, codec("truncated_Packages.zst") + ": byte 600");
  EXPECT_EQ(r.error().hint, "the file may be truncated");
}

TEST(AptCodecErrors, PlainTextUnderACompressedNameIsCorruptAtByteZero) {
  std::string dir = extdeps::test::temp_dir();
  std::string plain = extdeps::test::read_file(codec("sample_Packages"));
  for (const std::string ext : {"lz4", "gz", "xz", "zst"}) {
    std::string path = dir + "/plain_Packages." + ext;
    std::ofstream(path, std::ios::binary) << plain;
    std::string msg = read_error(path);
    std::string name = ext == "gz" ? "gzip" : ext == "zst" ? "zstd" : ext;
    EXPECT_EQ(msg.rfind(path + ": corrupt " + name + " data at byte offset ", 0), 0u) << msg;
  }
}

TEST(AptCodecErrors, EmptyCompressedFilesAreTruncatedAndMissingFilesUnreadable) {
  std::string dir = extdeps::test::temp_dir();
  std::string path = dir + "/empty_Packages.lz4";
  std::ofstream(path).flush();
  EXPECT_EQ(read_error(path), path +
                                  ": lz4 data ends early at byte offset 0 (expected the rest of the stream; "
                                  "the file may be truncated)");
  EXPECT_EQ(read_error(dir + "/missing_Packages"), dir + "/missing_Packages: cannot open: No such file or directory");
}

TEST(AptCodecErrors, StreamingKeepsLineNumbersAcrossChunks) {
  // 1.7 MB of real stanzas (the bookworm fixture, repeated) so the 1 MiB chunks cut between
  // stanzas, then one defect on the very last line.
  auto text = read_index_file(extdeps::test::data_path(
      "apt/bookworm/var/lib/apt/lists/deb.debian.org_debian_dists_bookworm_main_binary-amd64_Packages.lz4"));
  ASSERT_TRUE(text.ok()) << text.error().message;
  std::string big;
  for (int i = 0; i < 20; ++i) big += *text + "\n";
  size_t lines = static_cast<size_t>(std::count(big.begin(), big.end(), '\n'));
  std::string path = extdeps::test::temp_dir() + "/big_Packages";
  std::ofstream(path, std::ios::binary) << big;
  Collected c;
  auto r = parse_index_file(path, kAmd64, false, c.sink());
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(c.records.size(), 20u * 103u);

  std::ofstream(path, std::ios::binary | std::ios::app) << "Package: x\nno colon here\n";
  Collected d;
  r = parse_index_file(path, kAmd64, false, d.sink());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, path + ":" + std::to_string(lines + 2) +
                                   ": missing ':' in line 'no colon here' (expected 'Field: value' or an indented "
                                   "continuation line)");
}

TEST(AptCodecErrors, EveryDamagedOrCutStreamIsAResultNeverACrash) {
  for (const std::string ext : {".lz4", ".gz", ".xz", ".zst"}) {
    std::string good = extdeps::test::read_file(codec("sample_Packages" + ext));
    std::string name = "damaged_Packages" + ext;
    size_t errors = 0, runs = 0;
    for (size_t i = 0; i < good.size(); ++i) {
      std::string bad = good;
      bad[i] = static_cast<char>(bad[i] ^ 0xff);
      for (const std::string& data : {bad, good.substr(0, i)}) {
        auto text = decompress_index(data, name);
        ++runs;
        if (!text.ok()) {
          ++errors;
          EXPECT_EQ(text.error().message.rfind(name + ": ", 0), 0u) << text.error().message;
          continue;
        }
        Collected c;  // whatever came out must parse or fail cleanly
        (void)parse_stanzas(*text, name, kAmd64, false, c.sink());
      }
    }
    EXPECT_GT(errors, runs / 2) << ext;  // damage is almost always detected (checksums, sizes)
  }
}

TEST(AptCodecErrors, MemoryAndFileReadsAgree) {
  for (const std::string ext : {"", ".lz4", ".gz", ".xz", ".zst"}) {
    auto from_memory = decompress_index(extdeps::test::read_file(codec("sample_Packages" + ext)), "x_Packages" + ext);
    ASSERT_TRUE(from_memory.ok()) << from_memory.error().message;
    EXPECT_EQ(*from_memory, extdeps::test::read_file(codec("sample_Packages")));
  }
  auto bad = decompress_index(extdeps::test::read_file(codec("truncated_Packages.xz")), "x_Packages.xz");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().message,
            "x_Packages.xz: xz data ends early at byte offset 600 (expected the rest of the stream; the file may be "
            "truncated)");
}

}  // namespace
}  // namespace extdeps::apt
