// What Nix profiles have installed: manifest.json of each version (1 to 3), the output of
// `nix-env -q --json`, and a real nix-env profile built here by nix-env -i.
#include <gtest/gtest.h>

#include <map>

#include "core/json/byte_source.h"
#include "providers/nix/names.h"
#include "providers/nix/profile.h"
#include "tests/test_support.h"

namespace extdeps::nix {
namespace {

struct Row {
  std::string version, family, set;
  bool operator==(const Row&) const = default;
};
std::ostream& operator<<(std::ostream& o, const Row& r) { return o << r.version << "/" << r.family << "/" << r.set; }

std::map<std::string, Row> installed_of(const std::string& path, ProfileSummary* summary = nullptr) {
  auto src = json::open_file(path);
  EXPECT_TRUE(src) << src.error().message;
  std::map<std::string, Row> out;
  if (!src) return out;
  auto r = read_profile_manifest(**src, "/home/u/.nix-profile", [&](PackageRecord&& rec) {
    EXPECT_TRUE(rec.installed);
    EXPECT_EQ(rec.origin, "/home/u/.nix-profile");
    out[rec.name] = {rec.version, rec.family, rec.set};
  });
  EXPECT_TRUE(r) << r.error().message;
  if (r && summary) *summary = *r;
  return out;
}

// The same six elements in every version: five active (two from nixpkgs with a versioned or
// nested attribute, one from another flake, one installed by store path) and one inactive.
TEST(NixProfile, ManifestsOfEveryVersionGiveTheSameRecords) {
  const std::map<std::string, Row> expected = {
      {"hello", {"2.12.1", "hello", ""}},
      {"openssl_3_3", {"3.3.1", "openssl", ""}},
      {"cudaPackages_11.cuda_nvcc", {"11.8.89", "cuda_nvcc", "cudaPackages_11"}},
      {"tool", {"0.3.0", "tool", ""}},                 // another flake: named by its pname
      {"gcc-wrapper", {"13.3.0", "gcc-wrapper", ""}},  // a store path: named by its pname
  };
  for (int v : {1, 2, 3}) {
    ProfileSummary s;
    EXPECT_EQ(installed_of(test::data_path("nix/profiles/v" + std::to_string(v) + "/manifest.json"), &s), expected)
        << "version " << v;
    EXPECT_EQ(s.version, v);
    EXPECT_EQ(s.elements, 6u);
    EXPECT_EQ(s.installed, 5u);
  }
}

std::string error_of(const std::string& text) {
  auto src = json::over_memory(text, "manifest.json");
  auto r = read_profile_manifest(*src, "p", [](PackageRecord&&) {});
  return r ? "(no error)" : r.error().message;
}

TEST(NixProfile, ManifestErrorsSayWhatWasExpected) {
  EXPECT_EQ(error_of(R"({"version": 4, "elements": {}})"),
            "manifest.json: version is 4 at byte offset 12 (expected 1, 2 or 3; a newer manifest is not read)");
  EXPECT_EQ(error_of(R"({"elements": []})"), "manifest.json: the manifest has no version (expected 1, 2 or 3)");
  EXPECT_EQ(
      error_of(R"({"version": 3, "elements": []})"),
      "manifest.json: elements is an array at byte offset 27 (expected an object of elements by name in version 3)");
  EXPECT_EQ(error_of(R"({"version": 2, "elements": {}})"),
            "manifest.json: elements is an object at byte offset 27 (expected a list in version 2)");
  // The version may come after the elements, which are then read with its field names.
  EXPECT_EQ(error_of(R"({"elements": [{"active": "yes"}], "version": 1})"),
            "manifest.json: elements[0].active is a string at byte offset 25 (expected true or false)");
  EXPECT_EQ(error_of(R"({"version": 1, "elements": [{"storePaths": "/nix/store/x"}]})"),
            "manifest.json: elements[0].storePaths is a string at byte offset 43 (expected a list of strings)");
  EXPECT_EQ(error_of(R"({"version": 1, "elements": []})"), "(no error)");
  // Found by tests/fuzz (nix_profile harness): this became an installed record without a name.
  EXPECT_EQ(error_of(R"({"version": 2, "elements": [{"attrPath": "legacyPackages.x86_64-linux.", )"
                     R"("url": "github:NixOS/nixpkgs", "storePaths": )"
                     R"(["/nix/store/00000000000000000000000000000000-hello-2.12.1"]}]})"),
            "manifest.json: elements[0] names no package at byte offset 179 (expected an attrPath or a store "
            "path like /nix/store/<hash>-hello-2.12.1)");
}

TEST(NixProfile, NixEnvQueryOutputIsNamedByPname) {
  auto src = json::open_file(test::data_path("nix/profiles/nix-env/nix-env-q.json"));
  ASSERT_TRUE(src);
  std::map<std::string, Row> got;
  auto n = read_nix_env_installed(**src, "/home/u/.nix-profile", [&](PackageRecord&& r) {
    got[r.name] = {r.version, r.family, r.set};
  });
  ASSERT_TRUE(n) << n.error().message;
  EXPECT_EQ(*n, 2u);
  EXPECT_EQ(got, (std::map<std::string, Row>{{"openssl", {"3.0.15", "openssl", ""}}, {"zlib", {"1.3.1", "zlib", ""}}}));
  auto bad = json::over_memory(R"({"0": {"version": 1}})", "q.json");
  auto e = read_nix_env_installed(*bad, "p", [](PackageRecord&&) {});
  ASSERT_FALSE(e);
  EXPECT_EQ(e.error().message, "q.json: element \"0\".version is a number at byte offset 18 (expected a string)");
  // Found by tests/fuzz (nix_profile harness): an element with neither pname nor name.
  auto unnamed = json::over_memory(R"({"0": {"version": "1"}})", "q.json");
  auto u = read_nix_env_installed(*unnamed, "p", [](PackageRecord&&) {});
  ASSERT_FALSE(u);
  EXPECT_EQ(u.error().message,
            "q.json: element \"0\" names no package at byte offset 22 (expected a pname or a name like hello-2.12.1)");
}

TEST(NixDrvNames, DerivationNamesStorePathsAndAttributePaths) {
  auto dn = [](std::string_view s) {
    DrvName d = parse_drv_name(s);
    return d.name + "|" + d.version;
  };
  EXPECT_EQ(dn("openssl-3.0.15"), "openssl|3.0.15");
  EXPECT_EQ(dn("xz-5.4.6-bin"), "xz|5.4.6-bin");
  EXPECT_EQ(dn("gcc-wrapper-13.3.0"), "gcc-wrapper|13.3.0");
  EXPECT_EQ(dn("python3.12-numpy-1.26.4"), "python3.12-numpy|1.26.4");
  EXPECT_EQ(dn("source"), "source|");
  EXPECT_EQ(dn("hello-"), "hello-|");
  EXPECT_EQ(store_path_name("/nix/store/0f6fvnrs1xp8rb9d41zxw5bhqyi6b4ya-hello-2.12.1"), "hello-2.12.1");
  EXPECT_EQ(store_path_name("hello-2.12.1"), "hello-2.12.1");
  EXPECT_EQ(nixpkgs_attr_path("legacyPackages.x86_64-linux.cudaPackages.cuda_nvcc"), "cudaPackages.cuda_nvcc");
  EXPECT_EQ(nixpkgs_attr_path("packages.aarch64-linux.default"), "default");
  EXPECT_EQ(nixpkgs_attr_path("hello"), "hello");
  EXPECT_EQ(package_set("cudaPackages_12_4.cuda_nvcc"), "cudaPackages_12_4");
  EXPECT_EQ(package_set("openssl"), "");
  EXPECT_EQ(package_set("python3Packages.\"zope.interface\""), "python3Packages");
}

}  // namespace
}  // namespace extdeps::nix
