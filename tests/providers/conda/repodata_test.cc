// repodata.json into records: the real conda-forge subset (numpy and its closure, linux-64) and
// the repodata_version 2 file from ../shared/data/conda, a zstd copy of it, the hand-written
// channel in tests/data/conda/channel, and damaged indexes with their exact messages.
#include "providers/conda/repodata.h"

#include <gtest/gtest.h>
#include <zstd.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "core/util/text.h"
#include "tests/providers/conda/conda_test_support.h"
#include "tests/test_support.h"

namespace extdeps::conda {
namespace {

using test::Collected;
using test::show;
using Strings = std::vector<std::string>;

constexpr const char* kForge = "https://conda.anaconda.org/conda-forge/linux-64/";

std::string zstd(const std::string& plain) {
  std::string out(ZSTD_compressBound(plain.size()), '\0');
  size_t n = ZSTD_compress(out.data(), out.size(), plain.data(), plain.size(), 3);
  EXPECT_FALSE(ZSTD_isError(n));
  out.resize(n);
  return out;
}

std::string fixture_channel() { return extdeps::test::data_path("conda/channel/linux-64/repodata.json"); }

TEST(CondaRepodata, ReadsTheRealCondaForgeSubset) {
  EXTDEPS_SHARED_OR_SKIP(path, "conda/conda-forge-numpy-linux-64.json");
  Collected c;
  auto r = read_repodata_file(path, {kForge, "linux-64"}, c.sink());
  ASSERT_TRUE(r.ok()) << r.error().message;
  // 4 .tar.bz2 + 30 .conda files; libffi-3.4.2-h7f98852_5 is in both and is read once.
  EXPECT_EQ(r->records, 33u);
  EXPECT_EQ(r->replaced, 1u);
  EXPECT_EQ(c.records.size(), 33u);
  EXPECT_EQ(r->repodata_version, 0);  // the file does not say
  EXPECT_EQ(r->subdir, "");           // nor has it an info object
  EXPECT_EQ(r->base_url, kForge);
  EXPECT_EQ(c.records.front().name, "bzip2");  // packages.conda first
  EXPECT_EQ(c.records.back().name, "xz");      // then packages

  const PackageRecord* omp = c.find("_openmp_mutex");
  ASSERT_NE(omp, nullptr);
  EXPECT_EQ(omp->version, "4.5");
  EXPECT_EQ(omp->build, "2_gnu");
  EXPECT_EQ(omp->build_number, 16u);
  EXPECT_EQ(show(omp->depends), (Strings{"_libgcc_mutex|0.1 conda_forge", "libgomp|>=7.5.0"}));
  EXPECT_EQ(show(omp->constrains), (Strings{"openmp_impl|9999"}));
  EXPECT_EQ(omp->arch, "linux-64");
  EXPECT_EQ(omp->origin, std::string(kForge) + "_openmp_mutex-4.5-2_gnu.tar.bz2");
  EXPECT_EQ(omp->track_features, 0u);
  EXPECT_FALSE(omp->installed);
  EXPECT_TRUE(omp->provides.empty());
  EXPECT_TRUE(omp->conflicts.empty());

  const PackageRecord* numpy = c.find("numpy");
  ASSERT_NE(numpy, nullptr);
  EXPECT_EQ(numpy->version, "1.26.4");
  EXPECT_EQ(numpy->build, "py312head63a1_0");
  EXPECT_EQ(numpy->build_number, 0u);
  EXPECT_EQ(show(numpy->depends),
            (Strings{"libgcc-ng|>=12", "libstdcxx-ng|>=12", "libblas|>=3.9.0,<4.0a0", "liblapack|>=3.9.0,<4.0a0",
                     "libcblas|>=3.9.0,<4.0a0", "python_abi|3.12.* *_cp312", "python|>=3.12,<3.13.0a0"}));
  EXPECT_EQ(show(numpy->constrains), (Strings{"numpy-base|<0a0"}));
  EXPECT_EQ(numpy->origin, std::string(kForge) + "numpy-1.26.4-py312head63a1_0.conda");

  const PackageRecord* blas = c.find("libblas");
  ASSERT_NE(blas, nullptr);
  EXPECT_EQ(blas->build_number, 21u);
  EXPECT_EQ(show(blas->constrains),
            (Strings{"liblapacke|3.9.0 21_linux64_openblas", "blas|* openblas", "libcblas|3.9.0 21_linux64_openblas",
                     "liblapack|3.9.0 21_linux64_openblas"}));

  // A bare name is DepOp::any; null depends and constrains are empty.
  EXPECT_EQ(show(c.find("openssl")->depends), (Strings{"ca-certificates", "libgcc-ng|>=12"}));
  EXPECT_TRUE(c.find("_libgcc_mutex")->depends.empty());
  EXPECT_TRUE(c.find("_libgcc_mutex")->constrains.empty());
  EXPECT_EQ(c.find("pip")->arch, "noarch");
  EXPECT_EQ(c.find("tk")->build_number, 101u);
}

TEST(CondaRepodata, TheCondaFileWinsOverTheTarBz2OfTheSameStem) {
  EXTDEPS_SHARED_OR_SKIP(path, "conda/conda-forge-numpy-linux-64.json");
  Collected c;
  ASSERT_TRUE(read_repodata_file(path, {kForge, "linux-64"}, c.sink()).ok());
  size_t libffi = 0;
  for (const auto& r : c.records)
    if (r.name == "libffi") {
      ++libffi;
      EXPECT_EQ(r.origin, std::string(kForge) + "libffi-3.4.2-h7f98852_5.conda");
      EXPECT_EQ(show(r.depends), (Strings{"libgcc-ng|>=9.4.0"}));
      EXPECT_EQ(r.build_number, 5u);
    }
  EXPECT_EQ(libffi, 1u);
  // A .tar.bz2 whose stem has no .conda file stays.
  ASSERT_NE(c.find("xz"), nullptr);
  EXPECT_EQ(c.find("xz")->origin, std::string(kForge) + "xz-5.2.6-h166bdaf_0.tar.bz2");
}

TEST(CondaRepodata, AgreesWithNlohmannOnEveryRecordOfTheRealFile) {
  EXTDEPS_SHARED_OR_SKIP(path, "conda/conda-forge-numpy-linux-64.json");
  Collected c;
  ASSERT_TRUE(read_repodata_file(path, {kForge, "linux-64"}, c.sink()).ok());
  auto dom = nlohmann::json::parse(extdeps::test::read_file(path));
  size_t compared = 0;
  for (const char* section : {"packages.conda", "packages"}) {
    for (const auto& [fn, rec] : dom[section].items()) {
      if (std::string(section) == "packages" && dom["packages.conda"].contains(fn.substr(0, fn.size() - 8) + ".conda"))
        continue;
      const PackageRecord* r = nullptr;
      for (const auto& x : c.records)
        if (x.origin == std::string(kForge) + fn) r = &x;
      ASSERT_NE(r, nullptr) << fn;
      EXPECT_EQ(r->name, rec["name"].get<std::string>());
      EXPECT_EQ(r->version, rec["version"].get<std::string>());
      EXPECT_EQ(r->build, rec["build"].get<std::string>());
      EXPECT_EQ(r->build_number, rec["build_number"].get<unsigned>());
      EXPECT_EQ(r->arch, rec["subdir"].get<std::string>());
      Strings depends, constrains;
      for (const auto& d : rec["depends"].is_null() ? nlohmann::json::array() : rec["depends"]) depends.push_back(d);
      for (const auto& d : rec["constrains"].is_null() ? nlohmann::json::array() : rec["constrains"])
        constrains.push_back(d);
      Strings ours_depends, ours_constrains;
      for (const auto& g : r->depends)
        ours_depends.push_back(g[0].name + (g[0].version.empty() ? "" : " " + g[0].version));
      for (const auto& d : r->constrains)
        ours_constrains.push_back(d.name + (d.version.empty() ? "" : " " + d.version));
      EXPECT_EQ(ours_depends, depends) << fn;
      EXPECT_EQ(ours_constrains, constrains) << fn;
      ++compared;
    }
  }
  EXPECT_EQ(compared, 33u);
}

TEST(CondaRepodata, HonoursBaseUrlOfRepodataVersion2) {
  EXTDEPS_SHARED_OR_SKIP(path, "conda/conda-forge-repodata-version-2.json");
  Collected c;
  auto r = read_repodata_file(path, {kForge, "linux-64"}, c.sink());
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->repodata_version, 2);
  EXPECT_EQ(r->subdir, "linux-64");
  EXPECT_EQ(r->base_url, "https://repo.anaconda.com/repo/main/linux-64/");
  ASSERT_EQ(c.records.size(), 2u);
  // The records' own "url" points at conda-forge; CEP 15 says base_url + file name.
  EXPECT_EQ(c.find("bzip2")->origin, "https://repo.anaconda.com/repo/main/linux-64/bzip2-1.0.8-hd590300_5.conda");
  EXPECT_EQ(c.find("_libgcc_mutex")->origin,
            "https://repo.anaconda.com/repo/main/linux-64/_libgcc_mutex-0.1-conda_forge.tar.bz2");
  EXPECT_EQ(show(c.find("bzip2")->depends), (Strings{"libgcc-ng|>=12"}));
}

TEST(CondaRepodata, ResolvesBaseUrlsAgainstTheIndexLocation) {
  std::string loc = "https://conda.anaconda.org/conda-forge/linux-64/";
  EXPECT_EQ(package_base_url(loc, ""), loc);
  EXPECT_EQ(package_base_url("https://conda.anaconda.org/conda-forge/linux-64", ""), loc);
  EXPECT_EQ(package_base_url(loc, "https://repo.anaconda.com/repo/main/linux-64"),
            "https://repo.anaconda.com/repo/main/linux-64/");
  EXPECT_EQ(package_base_url(loc, "../noarch/"), "https://conda.anaconda.org/conda-forge/noarch/");
  EXPECT_EQ(package_base_url(loc, "../../mirror/./linux-64"), "https://conda.anaconda.org/mirror/linux-64/");
  EXPECT_EQ(package_base_url(loc, "pkgs/"), "https://conda.anaconda.org/conda-forge/linux-64/pkgs/");
  EXPECT_EQ(package_base_url(loc, "/other/linux-64/"), "https://conda.anaconda.org/other/linux-64/");
  EXPECT_EQ(package_base_url(loc, "//mirror.example/cf/linux-64/"), "https://mirror.example/cf/linux-64/");
  EXPECT_EQ(package_base_url("file:///srv/channel/linux-64/", "../noarch/"), "file:///srv/channel/noarch/");
  EXPECT_EQ(package_base_url("/srv/channel/linux-64/", "../noarch/"), "/srv/channel/noarch/");
  EXPECT_EQ(package_base_url("", ""), "");
}

TEST(CondaRepodata, ReadsTheHandWrittenChannelInAnyKeyOrder) {
  // "packages" comes before "info", whose base_url is relative; track_features in both
  // spellings; virtual packages in depends.
  Collected c;
  auto r = read_repodata_file(fixture_channel(), {"https://example.org/channel/linux-64/", "linux-64"}, c.sink());
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->repodata_version, 2);
  EXPECT_EQ(r->base_url, "https://example.org/mirror/linux-64/");
  EXPECT_EQ(r->replaced, 1u);
  Strings names;
  for (const auto& x : c.records) names.push_back(x.name + "-" + x.version + "-" + x.build);
  EXPECT_EQ(names, (Strings{"blas-1.0-mkl", "cuda-demo-12.4.0-h1234567_0", "numpy-2.0.0-py312h0000000_3",
                            "pytorch-cpu-2.1.0-cpu_py311h0000000_0", "legacy-tool-0.9-0"}));

  const PackageRecord* cuda = c.find("cuda-demo");
  EXPECT_EQ(show(cuda->depends),
            (Strings{"__cuda|>=12", "__glibc|>=2.17,<3.0.a0", "__linux", "__unix", "libstdcxx-ng|>=12"}));
  EXPECT_EQ(show(cuda->constrains), (Strings{"cudatoolkit|12.4.*"}));
  EXPECT_EQ(cuda->origin, "https://example.org/mirror/linux-64/cuda-demo-12.4.0-h1234567_0.conda");

  EXPECT_EQ(c.find("blas")->track_features, 1u);         // ["blas_mkl"]
  EXPECT_EQ(c.find("pytorch-cpu")->track_features, 3u);  // "pytorch-cpu,cpu_only  mkl_off"
  EXPECT_EQ(c.find("legacy-tool")->track_features, 0u);  // null
  EXPECT_EQ(show(c.find("blas")->depends), (Strings{"mkl"}));
  EXPECT_TRUE(c.find("pytorch-cpu")->depends.empty());
  EXPECT_EQ(c.find("numpy")->build_number, 3u);
  // No subdir in the record: info.subdir.
  EXPECT_EQ(c.find("legacy-tool")->arch, "linux-64");
  EXPECT_EQ(c.find("legacy-tool")->origin, "https://example.org/mirror/linux-64/legacy-tool-0.9-0.tar.bz2");
}

TEST(CondaRepodata, WithoutALocationPackagesAreBesideTheFile) {
  Collected c;
  // The fixture's base_url is relative, so it resolves against the file's folder.
  ASSERT_TRUE(read_repodata_file(fixture_channel(), {}, c.sink()).ok());
  std::string channel = extdeps::test::data_path("conda/channel/");
  EXPECT_EQ(c.find("blas")->origin,
            channel.substr(0, channel.rfind("/conda/channel/")) + "/conda/mirror/linux-64/blas-1.0-mkl.conda");
}

TEST(CondaRepodata, AZstdCopyReadsTheSameRecordsFromAFileAndFromMemory) {
  EXTDEPS_SHARED_OR_SKIP(path, "conda/conda-forge-numpy-linux-64.json");
  std::string plain = extdeps::test::read_file(path);
  std::string packed = zstd(plain);
  std::string zst = extdeps::test::temp_dir() + "/repodata.json.zst";
  std::ofstream(zst, std::ios::binary) << packed;

  Collected a, b, m;
  ASSERT_TRUE(read_repodata_file(path, {kForge, "linux-64"}, a.sink()).ok());
  auto rb = read_repodata_file(zst, {kForge, "linux-64"}, b.sink());
  ASSERT_TRUE(rb.ok()) << rb.error().message;
  auto rm = read_repodata_buffer(packed, "cache/repodata.json.zst", {kForge, "linux-64"}, m.sink());
  ASSERT_TRUE(rm.ok()) << rm.error().message;
  ASSERT_EQ(b.records.size(), a.records.size());
  ASSERT_EQ(m.records.size(), a.records.size());
  EXPECT_EQ(rb->replaced, 1u);
  for (size_t i = 0; i < a.records.size(); ++i) {
    EXPECT_EQ(b.records[i].origin, a.records[i].origin);
    EXPECT_EQ(m.records[i].origin, a.records[i].origin);
    EXPECT_EQ(show(b.records[i].depends), show(a.records[i].depends));
    EXPECT_EQ(show(m.records[i].constrains), show(a.records[i].constrains));
  }
}

std::string error_of(const std::string& text, const std::string& name = "repodata.json") {
  Collected c;
  auto r = read_repodata_buffer(text, name, {kForge, "linux-64"}, c.sink());
  if (r.ok()) return "(no error)";
  EXPECT_EQ(r.error().code, ExitCode::environment);
  return r.error().message;
}

std::string record(const std::string& body) { return R"({"packages.conda": {"a-1-0.conda": {)" + body + "}}}"; }

TEST(CondaRepodata, WrongTypesNameTheFieldTheOffsetAndWhatWasExpected) {
  const std::string id = R"("name": "a", "version": "1", "build": "0", )";  // the record starts at byte 35
  EXPECT_EQ(error_of(record(id + R"("build_number": "5")")),
            R"(repodata.json: packages.conda["a-1-0.conda"].build_number is a string at byte offset 95 )"
            "(expected a non-negative integer)");
  EXPECT_EQ(error_of(record(id + R"("build_number": -1)")),
            R"(repodata.json: packages.conda["a-1-0.conda"].build_number is -1 at byte offset 95 )"
            "(expected a non-negative integer)");
  EXPECT_EQ(error_of(record(id + R"("build_number": 4294967296)")),
            R"(repodata.json: packages.conda["a-1-0.conda"].build_number is 4294967296 at byte offset 95 )"
            "(expected a non-negative integer)");
  EXPECT_EQ(error_of(record(id + R"("depends": "b >=1")")),
            R"(repodata.json: packages.conda["a-1-0.conda"].depends is a string at byte offset 90 )"
            R"((expected a list of strings such as "numpy >=1.20"))");
  EXPECT_EQ(error_of(record(id + R"("depends": ["b", 3])")),
            R"(repodata.json: packages.conda["a-1-0.conda"].depends[1] is a number at byte offset 96 )"
            R"((expected a string such as "numpy >=1.20"))");
  EXPECT_EQ(error_of(record(id + R"("constrains": [">=1"])")),
            R"(repodata.json: packages.conda["a-1-0.conda"].constrains[0] is '>=1' at byte offset 94 )"
            "(expected a package name, then an optional version and build)");
  EXPECT_EQ(error_of(record(id + R"("track_features": 2)")),
            R"(repodata.json: packages.conda["a-1-0.conda"].track_features is a number at byte offset 97 )"
            "(expected a string or a list of strings)");
  EXPECT_EQ(error_of(record(R"("name": "a", "build": "0")")),
            R"(repodata.json: packages.conda["a-1-0.conda"] has no "version" at byte offset 35 )"
            "(expected name, version and build strings)");
  EXPECT_EQ(error_of(record(R"("name": "a ", "version": "1", "build": "0")")),
            R"(repodata.json: packages.conda["a-1-0.conda"].name is 'a ' at byte offset 35 )"
            "(expected a non-empty string without blanks around it)");
  // Names and versions within docs/limits.md's bounds.
  const std::string long_name(5000, 'n');
  EXPECT_EQ(error_of(record(R"("name": ")" + long_name + R"(", "version": "1", "build": "0")")),
            R"(repodata.json: packages.conda["a-1-0.conda"].name ')" + shorten(long_name) +
                "' of 5000 bytes at byte offset 35 (expected at most 1024 bytes)");
  EXPECT_EQ(error_of(record(R"("name": "a", "version": ")" + std::string(2000, '1') + R"(", "build": "0")")),
            R"(repodata.json: packages.conda["a-1-0.conda"].version ')" + shorten(std::string(2000, '1')) +
                "' of 2000 bytes at byte offset 35 (expected at most 1024 bytes)");
  EXPECT_EQ(error_of(record(R"("name": 1, "version": "1", "build": "0")")),
            R"(repodata.json: packages.conda["a-1-0.conda"].name is a number at byte offset 44 (expected a string))");
  EXPECT_EQ(
      error_of(R"({"packages": []})"),
      "repodata.json: packages is an array at byte offset 13 (expected an object of package records by file name)");
  EXPECT_EQ(error_of(R"({"packages": {"a-1-0.tar.bz2": []}})"),
            "repodata.json: unexpected '[' at byte offset 31 (expected '{')");
  EXPECT_EQ(error_of("[]"),
            R"(repodata.json: the index is an array at byte offset 0 (expected an object with "info" and "packages"))");
  EXPECT_EQ(error_of(R"({"info": "linux-64"})"),
            "repodata.json: info is a string at byte offset 9 (expected an object with subdir and base_url)");
  EXPECT_EQ(error_of(R"({"info": {"base_url": 7}})"),
            "repodata.json: info.base_url is a number at byte offset 22 (expected a string)");
  EXPECT_EQ(
      error_of(R"({"repodata_version": 3})"),
      "repodata.json: repodata_version is 3 at byte offset 21 (expected 1 or 2; a newer index format is not read)");
  EXPECT_EQ(error_of(R"({"repodata_version": "2"})"),
            "repodata.json: repodata_version is a string at byte offset 21 (expected 1 or 2; a newer index format is "
            "not read)");
  // In "packages", which is read on the second pass, the message is the same.
  EXPECT_EQ(error_of(R"({"packages": {"a-1-0.tar.bz2": {"name": "a", "version": "1", "build": 0}}})"),
            R"(repodata.json: packages["a-1-0.tar.bz2"].build is a number at byte offset 70 (expected a string))");
}

TEST(CondaRepodata, NotJsonAndTruncatedIndexesAreErrorsNamingTheFile) {
  EXPECT_EQ(error_of("<html><body>502 Bad Gateway</body></html>"),
            "repodata.json: unexpected '<' at byte offset 0 (expected a JSON value)");
  EXPECT_EQ(error_of(""),
            "repodata.json: data ends early at byte offset 0 (expected a JSON value; the file may be "
            "truncated)");
  EXTDEPS_SHARED_OR_SKIP(path, "conda/conda-forge-numpy-linux-64.json");
  std::string text = extdeps::test::read_file(path);
  size_t cut = text.find("\"numpy-1.26.4-py312head63a1_0.conda\"") + 10;
  std::string file = extdeps::test::temp_dir() + "/repodata.json";
  std::ofstream(file, std::ios::binary) << text.substr(0, cut);
  Collected c;
  auto r = read_repodata_file(file, {kForge, "linux-64"}, c.sink());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, file + ": data ends early at byte offset " + std::to_string(cut) +
                                   " (expected '\"' to end the string; the file may be truncated)");
  EXPECT_EQ(r.error().code, ExitCode::environment);
  // The whole file is checked before a deferred section is read: nothing reached the sink.
  EXPECT_TRUE(c.records.empty());

  std::string packed = zstd(text);
  EXPECT_EQ(error_of(packed.substr(0, packed.size() / 2), "repodata.json.zst"),
            "repodata.json.zst: zstd data ends early at byte offset " + std::to_string(packed.size() / 2) +
                " (expected the rest of the stream; the file may be truncated)");
  EXPECT_EQ(error_of(zstd(text.substr(0, cut)), "repodata.json.zst"),
            "repodata.json.zst: data ends early at byte offset " + std::to_string(cut) +
                " of the decompressed data (expected '\"' to end the string; the file may be truncated)");
}

TEST(CondaRepodata, EveryCutAndEveryDamagedByteIsAResultNeverACrash) {
  std::string text = extdeps::test::read_file(fixture_channel());
  for (size_t n = 0; n < text.size(); ++n) {
    if (std::string_view(text).substr(n).find_first_not_of(" \n") == std::string_view::npos) continue;
    std::string msg = error_of(text.substr(0, n));
    EXPECT_EQ(msg.rfind("repodata.json: ", 0), 0u) << n << ": " << msg;
  }
  for (size_t n = 0; n < text.size(); n += 3) {
    for (char bad : {'}', '"', '\0', '[', ','}) {
      std::string damaged = text;
      damaged[n] = bad;
      Collected c;
      auto r = read_repodata_buffer(damaged, "repodata.json", {kForge, "linux-64"}, c.sink());
      if (!r.ok()) {
        EXPECT_EQ(r.error().message.rfind("repodata.json: ", 0), 0u) << r.error().message;
      }
    }
  }
  std::string packed = zstd(text);
  for (size_t n = 0; n < packed.size(); ++n) {
    std::string msg = error_of(packed.substr(0, n), "repodata.json.zst");
    EXPECT_EQ(msg.rfind("repodata.json.zst: ", 0), 0u) << n << ": " << msg;
  }
}

}  // namespace
}  // namespace extdeps::conda
