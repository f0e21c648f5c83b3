// read_regular_file (core/util/regular_file.h): a FIFO, a device, a directory or a link where a
// link is refused is an error at once, never a wait or a read without end; a file larger than the
// bound is refused. Issue 31's reproductions: a FIFO at <root>/etc/os-release blocked every
// resolve, a `--host` FIFO blocked detect.
#include "core/util/regular_file.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/cli/cli.h"
#include "core/context/context.h"
#include "core/detect/os_release.h"
#include "core/json/byte_source.h"
#include "core/util/compressed_reader.h"
#include "core/util/sealed_file.h"
#include "tests/support/providers.h"
#include "tests/test_support.h"

namespace extdeps {
namespace {

namespace fs = std::filesystem;

TEST(RegularFile, AFileIsReadWhole) {
  const std::string path = test::temp_dir() + "/f";
  std::ofstream(path, std::ios::binary) << std::string(200000, 'x') << "end";
  auto text = read_regular_file(path, 1 << 20, Links::refuse);
  ASSERT_TRUE(text.ok()) << text.error().message;
  EXPECT_EQ(text->size(), 200003u);
  EXPECT_EQ(text->substr(text->size() - 3), "end");
}

TEST(RegularFile, WhatIsNotARegularFileIsRefusedAtOnce) {
  const std::string dir = test::temp_dir();
  const std::string fifo = dir + "/fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  auto r = read_regular_file(fifo, 1 << 20, Links::follow);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, fifo + ": is a FIFO, not a regular file");
  EXPECT_EQ(r.error().code, ExitCode::environment);

  auto zero = read_regular_file("/dev/zero", 1 << 20, Links::follow, ExitCode::bad_input);
  ASSERT_FALSE(zero.ok());
  EXPECT_EQ(zero.error().message, "/dev/zero: is a character device, not a regular file");
  EXPECT_EQ(zero.error().code, ExitCode::bad_input);

  auto folder = read_regular_file(dir, 1 << 20, Links::follow);
  ASSERT_FALSE(folder.ok());
  EXPECT_EQ(folder.error().message, dir + ": is a directory, not a regular file");

  // A link to /dev/zero under a cache: not followed where links are refused, refused as a
  // device where they are followed.
  const std::string link = dir + "/desc";
  fs::create_symlink("/dev/zero", link);
  auto refused = read_regular_file(link, 1 << 20, Links::refuse);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().message,
            link + ": is a symbolic link, which is not followed here (expected a regular file)");
  auto followed = read_regular_file(link, 1 << 20, Links::follow);
  ASSERT_FALSE(followed.ok());
  EXPECT_EQ(followed.error().message, link + ": is a character device, not a regular file");
}

TEST(RegularFile, AFileLargerThanTheBoundIsRefused) {
  const std::string path = test::temp_dir() + "/big";
  std::ofstream(path, std::ios::binary) << std::string(4097, 'x');
  auto r = read_regular_file(path, 4096, Links::refuse);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, path + ": is larger than 4096 bytes (docs/limits.md)");
  EXPECT_TRUE(read_regular_file(path, 4097, Links::refuse).ok());
  auto absent = read_regular_file(path + ".absent", 4096, Links::refuse);
  ASSERT_FALSE(absent.ok());
  EXPECT_EQ(absent.error().message, path + ".absent: cannot be read (No such file or directory)");
}

// A FIFO at <root>/etc/os-release: the os-release under /usr/lib is read instead, at once.
TEST(RegularFile, AnOsReleaseFifoIsPassedOverNotWaitedOn) {
  const std::string root = test::temp_dir();
  fs::create_directories(root + "/etc");
  fs::create_directories(root + "/usr/lib");
  ASSERT_EQ(::mkfifo((root + "/etc/os-release").c_str(), 0600), 0);
  std::ofstream(root + "/usr/lib/os-release") << "ID=debian\nVERSION_ID=\"12\"\nVERSION_CODENAME=bookworm\n";
  auto os = detect::read_os_release(Context::for_test(root, {}));
  EXPECT_EQ(os.id, "debian");
  EXPECT_EQ(os.version_codename, "bookworm");
}

// Every reader of an index or a cache body opens its file through open_regular_file: a FIFO is
// refused at once (opening one for reading blocked until a writer came), a link to a device
// (an apt list linked to /dev/zero) is refused, not read without end.
TEST(RegularFile, EveryIndexAndCacheReaderRefusesAFifoOrADevice) {
  const std::string dir = test::temp_dir();
  const std::string fifo = dir + "/Packages", zero = dir + "/status";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  fs::create_symlink("/dev/zero", zero);
  for (const auto& [path, kind] : {std::pair{fifo, "a FIFO"}, std::pair{zero, "a character device"}}) {
    const std::string message = path + ": is " + kind + ", not a regular file";
    auto fd = open_regular_file(path, Links::follow);
    ASSERT_FALSE(fd.ok());
    EXPECT_EQ(fd.error().message, message);
    auto plain = CompressedReader::open(path);
    ASSERT_FALSE(plain.ok());
    EXPECT_EQ(plain.error().message, message);
    auto sniffed = CompressedReader::open_sniffed(path);
    ASSERT_FALSE(sniffed.ok());
    EXPECT_EQ(sniffed.error().message, message);
    auto json = extdeps::json::open_file(path);
    ASSERT_FALSE(json.ok());
    EXPECT_EQ(json.error().message, message);
    EXPECT_FALSE(sealed::MappedFile::open(path));
    EXPECT_FALSE(sealed::read_all(path));
  }
  auto missing = open_regular_file(dir + "/none", Links::follow);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().message, dir + "/none: cannot open: No such file or directory");
  const std::string file = dir + "/real";
  std::ofstream(file) << "Package: a\n";
  auto fd = open_regular_file(file, Links::follow);
  ASSERT_TRUE(fd.ok()) << fd.error().message;
  char buf[16];
  EXPECT_EQ(::read(*fd, buf, sizeof buf), 11);
  ::close(*fd);
}

// End to end: a conda channel on disk whose repodata.json is a FIFO ends the resolve with its
// error (exit 3) at once, where opening it waited for a writer for ever.
TEST(RegularFile, AResolveOnAChannelWithAFifoForRepodataEnds) {
  EXTDEPS_NEEDS_PROVIDER("conda");
  const std::string channel = test::temp_dir();
  fs::create_directories(channel + "/linux-64");
  fs::create_directories(channel + "/noarch");
  ASSERT_EQ(::mkfifo((channel + "/linux-64/repodata.json").c_str(), 0600), 0);
  std::ofstream(channel + "/noarch/repodata.json") << "{\"packages\": {}}";
  auto ctx = Context::from_process();
  ctx.set_warning_sink(nullptr);
  std::ostringstream out, err;
  const std::string source = std::string(EXTDEPS_TEST_DATA) + "/../..";
  int rc = cli::run(ctx,
                    {"resolve", source + "/bench/conda-ten-deps", "--manager", "conda", "--channel",
                     "file://" + channel, "--cache-dir", test::temp_dir()},
                    out, err);
  EXPECT_EQ(rc, 3) << out.str() << err.str();
  EXPECT_NE(err.str().find(channel + "/linux-64/repodata.json): is a FIFO, not a regular file"), std::string::npos)
      << err.str();
}

}  // namespace
}  // namespace extdeps
