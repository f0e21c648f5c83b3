// nixpkgs indexes: the real output of nix-env -qaP --json --meta (the fixture, and nix-env run here
// on the test nixpkgs), a channel's packages.json (plain and brotli), nix search --json; what is not
// a candidate on a platform; the errors, with the byte offset.
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>

#include "core/json/byte_source.h"
#include "providers/nix/index.h"
#include "providers/nix/names.h"
#include "providers/nix/platform.h"
#include "tests/support/http_server.h"
#include "tests/support/nix_tool.h"
#include "tests/test_support.h"

namespace extdeps::nix {
namespace {

struct Read {
  IndexSummary summary;
  std::map<std::string, Attribute> by_path;
};

Read read(const std::string& text, const std::string& name, const Platform* platform) {
  auto src = json::over_memory(text, name);
  Read r;
  auto s = read_index(*src, {platform}, [&](Attribute&& a) { r.by_path.emplace(a.path, std::move(a)); });
  EXPECT_TRUE(s) << s.error().message;
  if (s) r.summary = *s;
  return r;
}

std::string error_of(const std::string& text, const std::string& name = "index.json") {
  auto src = json::over_memory(text, name);
  Platform p("x86_64-linux");
  auto s = read_index(*src, {&p}, [](Attribute&&) {});
  return s ? "(no error)" : s.error().message;
}

std::vector<std::string> paths(const Read& r) {
  std::vector<std::string> out;
  for (const auto& [p, a] : r.by_path) out.push_back(p);
  return out;
}

TEST(NixIndex, ReadsNixEnvOutputAndDropsWhatIsNoCandidate) {
  Platform x86("x86_64-linux");
  auto r = read(test::read_file(test::data_path("nix/nix-env-qaP.json")), "nix-env-qaP.json", &x86);
  EXPECT_EQ(r.summary.format, IndexFormat::nix_env);
  EXPECT_EQ(r.summary.attributes, 30u);
  EXPECT_EQ(r.summary.broken, 1u);          // libfoo
  EXPECT_EQ(r.summary.unavailable, 1u);     // openssl_1_1
  EXPECT_EQ(r.summary.other_platform, 2u);  // darwin-only, not-on-x86
  EXPECT_EQ(r.summary.candidates, 26u);
  EXPECT_EQ(r.by_path.count("libfoo"), 0u);
  EXPECT_EQ(r.by_path.count("openssl_1_1"), 0u);
  EXPECT_EQ(r.by_path.count("darwin-only"), 0u);
  EXPECT_EQ(r.by_path.count("not-on-x86"), 0u);
  EXPECT_EQ(r.by_path.count("linux-pattern"), 1u);  // {"kernel": {"name": "linux"}} matches
  const Attribute& o = r.by_path.at("openssl_3_3");
  EXPECT_EQ(o.name, "openssl-3.3.1");
  EXPECT_EQ(o.pname, "openssl");
  EXPECT_EQ(o.version, "3.3.1");
  EXPECT_EQ(o.system, "x86_64-linux");
  EXPECT_EQ(o.outputs, (std::vector<std::string>{"bin", "debug", "dev", "doc", "man", "out"}));
  EXPECT_EQ(o.available, true);
  EXPECT_EQ(o.broken, false);
  EXPECT_EQ(o.on_platform, true);
  EXPECT_EQ(r.by_path.at("cudaPackages_11.libcufft").pname, "libcufft");
  EXPECT_EQ(r.by_path.at("gcc").pname, "gcc-wrapper");

  // On another platform: the badPlatforms pattern no longer applies, but every attribute was
  // evaluated for x86_64-linux.
  Platform arm("aarch64-linux");
  auto a = read(test::read_file(test::data_path("nix/nix-env-qaP.json")), "nix-env-qaP.json", &arm);
  EXPECT_EQ(a.summary.candidates, 0u);
  EXPECT_EQ(a.summary.other_system, "x86_64-linux");
}

// The fixture is what nix-env prints: nix-env run here on the test nixpkgs prints the same, and
// the reader takes it as it comes out of nix.
TEST(NixIndex, RealNixEnvOutputIsTheFixture) {
  EXTDEPS_NIX_OR_SKIP(nix);
  std::string err;
  auto out = nix.run(
      "nix-env -qaP --json --meta -f " + test::data_path("nix/nixpkgs") + " --argstr system x86_64-linux", &err);
  ASSERT_TRUE(out) << err;
  EXPECT_EQ(nlohmann::json::parse(*out),
            nlohmann::json::parse(test::read_file(test::data_path("nix/nix-env-qaP.json"))));
  Platform x86("x86_64-linux");
  auto r = read(*out, "nix-env", &x86);
  EXPECT_EQ(r.summary.candidates, 26u);
  EXPECT_EQ(r.by_path.at("cudaPackages.cuda_nvcc").version, "12.4.131");
  EXPECT_EQ(r.by_path.count("llvmPackages_17.llvm"), 0u);  // not a set nix-env recurses into
}

TEST(NixIndex, ReadsAChannelPackagesJsonPlainAndBrotli) {
  Platform x86("x86_64-linux");
  const std::string text = test::read_file(test::data_path("nix/packages.json"));
  auto r = read(text, "packages.json", &x86);
  EXPECT_EQ(r.summary.format, IndexFormat::packages_json);
  EXPECT_EQ(r.summary.attributes, 12u);
  // openssl_1_1 (insecure), libfoo-broken, cudaPackages.cuda_nvcc (unfree) are unavailable
  // there; darwin.libiconv is for darwin.
  EXPECT_EQ(paths(r), (std::vector<std::string>{"cmake", "gcc", "hello", "openssl", "openssl_3_3",
                                                "python311Packages.numpy", "python312Packages.numpy", "zlib"}));
  EXPECT_EQ(r.summary.broken, 1u);
  EXPECT_EQ(r.summary.unavailable, 2u);
  EXPECT_EQ(r.summary.other_platform, 1u);
  EXPECT_EQ(r.by_path.at("python312Packages.numpy").pname, "python3.12-numpy");
  if (!test::have_brotli()) GTEST_SKIP() << "the tests were built without libbrotlienc";
  std::string packed = test::encode(test::Encoding::brotli, text);
  auto b = read(packed, "https://channels.nixos.org/nixos-24.05/packages.json.br", &x86);
  EXPECT_EQ(paths(b), paths(r));
}

TEST(NixIndex, ReadsNixSearchOutput) {
  Platform x86("x86_64-linux");
  auto r = read(test::read_file(test::data_path("nix/nix-search.json")), "nix search", &x86);
  EXPECT_EQ(r.summary.format, IndexFormat::nix_search);
  // No meta in nix search output: darwin.libiconv is listed on x86_64-linux too, as nix search
  // lists it.
  EXPECT_EQ(r.summary.candidates, 9u);
  const Attribute& n = r.by_path.at("python311Packages.numpy");
  EXPECT_EQ(n.pname, "python3.11-numpy");
  EXPECT_EQ(n.version, "1.26.4");
  EXPECT_TRUE(n.outputs.empty());
  EXPECT_FALSE(n.available.has_value());
}

TEST(NixIndex, WithoutAPlatformEveryAttributeIsHandedOver) {
  auto r = read(test::read_file(test::data_path("nix/nix-env-qaP.json")), "x", nullptr);
  EXPECT_EQ(r.summary.candidates, 30u);
  EXPECT_FALSE(r.by_path.at("darwin-only").on_platform.has_value());
}

// nix-env -qaP --json on a machine with channels: "<channel>.<attribute path>" (issue 14).
TEST(NixIndex, ChannelPrefixesAreCutWhateverTheChannelIsNamed) {
  const std::string text = R"({
    "nixpkgs.gdal": {"name": "gdal-3.9.3", "pname": "gdal", "version": "3.9.3"},
    "nixpkgs.python3Packages.numpy": {"name": "python3.12-numpy-1.26.4", "pname": "numpy", "version": "1.26.4"}
  })";
  auto r = read(text, "x", nullptr);
  EXPECT_EQ(r.summary.channel, "nixpkgs");
  EXPECT_EQ(paths(r), (std::vector<std::string>{"gdal", "python3Packages.numpy"}));
  // Channels of the machine's own naming (~/.nix-channels), a dot in one too, and one by its form.
  for (const std::string channel : {"mychannel", "nixos-24.05", "nixos-unstable"}) {
    const std::string text_of_channel = "{\"" + channel + ".zlib\": {\"name\": \"zlib-1.3.1\"}}";
    auto src = json::over_memory(text_of_channel, "x");
    std::vector<std::string> got;
    auto s = read_index(*src, {nullptr, {"mychannel", "nixos-24.05"}}, [&](Attribute&& a) { got.push_back(a.path); });
    ASSERT_TRUE(s) << s.error().message;
    EXPECT_EQ(s->channel, channel);
    EXPECT_EQ(got, std::vector<std::string>{"zlib"});
  }
  // Without channels, a package set's name is not one.
  auto plain = read(R"({"python3Packages.numpy": {"name": "python3.12-numpy-1.26.4"}, "gdal": {"name": "gdal-3.9.3"}})",
                    "x", nullptr);
  EXPECT_EQ(plain.summary.channel, "");
  EXPECT_EQ(paths(plain), (std::vector<std::string>{"gdal", "python3Packages.numpy"}));
  EXPECT_EQ(channel_of_key("nixosTests.foo", {}), "");
  EXPECT_EQ(channel_of_key("nixpkgs-unstable.hello", {}), "nixpkgs-unstable");
}

TEST(NixIndex, NameAndVersionComeFromTheDerivationNameWhenMissing) {
  Platform x86("x86_64-linux");
  auto r = read(R"({"xz": {"name": "xz-5.4.6"}, "source": {"name": "source"}})", "old.json", &x86);
  EXPECT_EQ(r.by_path.at("xz").pname, "xz");
  EXPECT_EQ(r.by_path.at("xz").version, "5.4.6");
  EXPECT_EQ(r.by_path.at("source").version, "");
}

TEST(NixIndex, PlatformPatternsThatAreNotKnownCountAsMatching) {
  Platform x86("x86_64-linux");
  auto r = read(R"({"a": {"name": "a-1", "meta": {"platforms": [{"isStatic": true}]}},
                   "b": {"name": "b-1", "meta": {"platforms": [{"cpu": {"family": "arm"}}, "aarch64-linux"]}},
                   "c": {"name": "c-1", "meta": {"badPlatforms": [{"kernel": {"name": "darwin"}}]}}})",
                "p.json", &x86);
  EXPECT_EQ(paths(r), (std::vector<std::string>{"a", "c"}));
  EXPECT_FALSE(r.by_path.at("a").on_platform.has_value());
}

TEST(NixIndex, ErrorsNameTheAttributeTheOffsetAndWhatWasExpected) {
  EXPECT_EQ(error_of(R"({"hello": {"version": 2}})"),
            "index.json: attribute 'hello': version is a number at byte offset 22 (expected a string)");
  EXPECT_EQ(error_of(R"({"hello": {"meta": {"broken": "no"}}})"),
            "index.json: attribute 'hello': meta.broken is a string at byte offset 30 (expected true or false)");
  EXPECT_EQ(error_of(R"({"hello": {"meta": {"platforms": "x86_64-linux"}}})"),
            "index.json: attribute 'hello': meta.platforms is a string at byte offset 33 (expected a list of "
            "systems or patterns)");
  EXPECT_EQ(error_of(R"({"hello": {"meta": {"platforms": [1]}}})"),
            "index.json: attribute 'hello': meta.platforms element is a number at byte offset 34 (expected a "
            "system such as \"x86_64-linux\" or a pattern object)");
  EXPECT_EQ(
      error_of(R"({"hello": {"outputs": 1}})"),
      "index.json: attribute 'hello': outputs is a number at byte offset 22 (expected an object of output names)");
  EXPECT_EQ(error_of(R"({"a": {"meta": {"platforms": [{"cpu": )" + std::string(100, '[')),
            "index.json: attribute 'a': a platform pattern nests deeper than 32 levels at byte offset 70");
  EXPECT_EQ(
      error_of(R"({"hello": "hello-2.12"})"),
      "index.json: attribute 'hello' is a string at byte offset 10 (expected an object with name, pname, version)");
  // Found by tests/fuzz (nix_index harness): these became records without a name.
  EXPECT_EQ(error_of(R"({"": {"name": "x-1"}})"),
            "index.json: attribute '' names no attribute path at byte offset 5 (expected a name like \"openssl\")");
  EXPECT_EQ(error_of(R"({"legacyPackages.x86_64-linux.": {}})"),
            "index.json: attribute 'legacyPackages.x86_64-linux.' names no attribute path at byte offset 33 "
            "(expected a name like \"openssl\")");
  // Names and versions within docs/limits.md's bounds.
  EXPECT_EQ(error_of("{\"" + std::string(2000, 'a') + "\": {}}"),
            "index.json: an attribute path of 2000 bytes at byte offset 2005 (expected at most 1024 bytes)");
  EXPECT_EQ(error_of(R"({"hello": {"pname": ")" + std::string(3000, 'p') + R"("}})"),
            "index.json: attribute 'hello': pname of 3000 bytes at byte offset 20 (expected at most 1024 bytes)");
  EXPECT_EQ(error_of(R"({"hello": {"version": ")" + std::string(3000, '1') + R"("}})"),
            "index.json: attribute 'hello': version of 3000 bytes at byte offset 22 (expected at most 1024 bytes)");
  EXPECT_EQ(error_of("[]"),
            "index.json: the index is an array at byte offset 0 (expected an object of attributes, "
            "as nix-env -qaP --json --meta prints it)");
  EXPECT_EQ(error_of(R"({"version": 3, "packages": {}})"),
            "index.json: version is 3 at byte offset 12 (expected 2, a packages.json as nixpkgs channels publish it; "
            "another format is not read)");
  EXPECT_EQ(error_of(R"({"version": 2, "packages": []})"),
            "index.json: packages is an array at byte offset 27 (expected an object of attributes)");
  EXPECT_EQ(error_of(R"({"hello": {"name": "hello-2.12.1")"),
            "index.json: data ends early at byte offset 33 (expected ',' or '}'; the file may be truncated)");
  if (!test::have_brotli()) return;
  std::string packed = test::encode(test::Encoding::brotli, test::read_file(test::data_path("nix/packages.json")));
  packed.resize(packed.size() / 2);
  std::string e = error_of(packed, "packages.json.br");
  EXPECT_EQ(e, "packages.json.br: brotli data ends early at byte offset " + std::to_string(packed.size()) +
                   " (expected the rest of the stream; the file may be truncated)");
}

TEST(NixPlatform, MachineSystemAndPatterns) {
  EXPECT_EQ(machine_system(Context::for_test("/", {{"EXTDEPS_NIX_SYSTEM", "riscv64-linux"}})), "riscv64-linux");
  Platform p("aarch64-linux");
  EXPECT_EQ(p.matches(nlohmann::json("aarch64-linux")), true);
  EXPECT_EQ(p.matches(nlohmann::json("x86_64-linux")), false);
  EXPECT_EQ(p.matches(nlohmann::json::parse(R"({"cpu": {"family": "arm", "bits": 64}})")), true);
  EXPECT_EQ(p.matches(nlohmann::json::parse(R"({"cpu": {"family": "arm", "bits": 32}})")), false);
  EXPECT_EQ(p.matches(nlohmann::json::parse(R"({"kernel": {"name": "linux", "families": {}}})")), true);
  EXPECT_EQ(p.matches(nlohmann::json::parse(R"({"isMusl": true})")), std::nullopt);
}

}  // namespace
}  // namespace extdeps::nix
