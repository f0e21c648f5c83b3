// The nix provider in a solve: an index (the real nix-env output of the test nixpkgs; a channel's
// packages.json.br served on 127.0.0.1; an index nix-env makes here), a profile, the shipped
// mappings/nixpkgs.toml. Attributes sharing a pname stand in for one another (the named one
// preferred), package sets are kept together, installed stand-ins meet needs; the commands and
// the environment files; what failures say.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "core/declare/declare.h"
#include "core/fetch/fetch.h"
#include "core/plan/plan.h"
#include "core/plan/render.h"
#include "core/solve/solve.h"
#include "providers/nix/environment.h"
#include "providers/nix/nix_provider.h"
#include "tests/support/http_server.h"
#include "tests/support/nix_tool.h"
#include "tests/test_support.h"

namespace fs = std::filesystem;

namespace extdeps::nix {
namespace {

constexpr const char* kRevision = "b833ff01a0d694b910daca6e2ff4a3f26dee478c";

class NixProviderTest : public ::testing::Test {
 protected:
  void SetUp() override { ctx_.set_cache_dir(cache_); }

  fetch::Options fetch_options() const {
    fetch::Options o;
    o.cache_dir = cache_ + "/http";
    o.connect_timeout_ms = 500;
    o.low_speed_time_s = 1;
    o.retries = 1;
    o.backoff_ms = 10;
    return o;
  }

  // Resolves `needs` ("dep:generic/openssl@>=3.3", host) with the nix provider alone.
  Result<plan::Outcome> resolve(ProviderOptions options, const std::vector<std::string>& needs,
                                Category category = Category::host) {
    if (!options.system) options.system = "x86_64-linux";
    std::vector<std::unique_ptr<Provider>> providers;
    providers.push_back(make_provider(ctx_, std::move(options)));
    fetch::Fetcher fetcher(ctx_, fetch_options());
    if (auto r = providers[0]->prepare(ctx_, fetcher); !r) return r.error();
    auto tables = mapping::load_tables(ctx_, {std::string(EXTDEPS_SOURCE_MAPPINGS_DIR)});
    if (!tables) return tables.error();
    std::vector<Requirement> reqs;
    for (const auto& n : needs) {
      auto r = declare::parse_requirement(n);
      if (!r) return r.error();
      r->category = category;
      reqs.push_back(*r);
    }
    solve::Options so;
    so.managers = {"nix"};
    so.use_cache = use_cache_;
    return plan::make_plan(solve::resolve(ctx_, reqs, *tables, providers, so));
  }

  // "status name version, name version" of each requirement.
  static std::vector<std::string> summary(const plan::Outcome& o) {
    std::vector<std::string> out;
    for (const auto& r : o.requirements) {
      std::string s(plan::status_name(r.status));
      for (size_t i = 0; i < r.packages.size(); ++i)
        s += (i ? ", " : " ") + r.packages[i].name + " " + r.packages[i].version;
      out.push_back(s);
    }
    return out;
  }

  // The fixture index; the profile given, else the default one of an empty HOME (none).
  static ProviderOptions fixture(std::string profile = "") {
    ProviderOptions o;
    o.index = test::data_path("nix/nix-env-qaP.json");
    o.profile = std::move(profile);
    return o;
  }

  std::string cache_ = test::temp_dir();
  Context ctx_ = Context::for_test("/", {{"PATH", ""}, {"HOME", test::temp_dir()}});
  bool use_cache_ = true;
};

TEST_F(NixProviderTest, TheNamedAttributeIsPreferredAndAVersionedOneMeetsARange) {
  auto o = resolve(fixture(), {"dep:generic/openssl", "dep:generic/zlib"});
  ASSERT_TRUE(o) << o.error().message;
  EXPECT_EQ(summary(*o), (std::vector<std::string>{"planned openssl 3.0.14", "planned zlib 1.3.1"}));
  ASSERT_EQ(o->steps.size(), 1u);
  EXPECT_EQ(plan::shell_line(o->steps[0].command), "nix profile install 'nixpkgs#openssl' 'nixpkgs#zlib'");
  EXPECT_FALSE(o->steps[0].requires_elevation);
  auto v = resolve(fixture(), {"dep:generic/openssl@>=3.3"});
  ASSERT_TRUE(v) << v.error().message;
  EXPECT_EQ(summary(*v), std::vector<std::string>{"planned openssl_3_3 3.3.1"});
  // Two needs of one id are met by one attribute, as two needs of one package are met by one
  // version elsewhere: openssl_3_3 meets both.
  auto both = resolve(fixture(), {"dep:generic/openssl", "dep:generic/openssl@>=3.3"});
  ASSERT_TRUE(both) << both.error().message;
  EXPECT_EQ(summary(*both), (std::vector<std::string>{"planned openssl_3_3 3.3.1", "planned openssl_3_3 3.3.1"}));
}

TEST_F(NixProviderTest, NothingInRangeSaysWhatEachAttributeGives) {
  auto o = resolve(fixture(), {"dep:generic/openssl@>=4"});
  ASSERT_TRUE(o) << o.error().message;
  EXPECT_EQ(summary(*o), std::vector<std::string>{"unsatisfiable"});
  ASSERT_EQ(o->problems.size(), 1u);
  const auto& d = o->problems[0].details;
  auto has = [&](const std::string& text) {
    return std::any_of(d.begin(), d.end(), [&](const std::string& x) { return x.find(text) != std::string::npos; });
  };
  EXPECT_TRUE(has("openssl 3.0.14 (nixpkgs) gives version 3.0.14, which is not >=4")) << ::testing::PrintToString(d);
  EXPECT_TRUE(has("openssl_3_3 3.3.1 (nixpkgs) gives version 3.3.1, which is not >=4")) << ::testing::PrintToString(d);
  // openssl_1_1 is unavailable (insecure): not a candidate at all.
  EXPECT_FALSE(has("openssl_1_1")) << ::testing::PrintToString(d);
}

// cufft reads the CUDA release from cuda_cudart: an older release comes from one set, whole.
TEST_F(NixProviderTest, PackageSetsStandInTogether) {
  auto o = resolve(fixture(), {"dep:generic/cufft@>=12", "dep:virtual/compiler/cuda"});
  ASSERT_TRUE(o) << o.error().message;
  EXPECT_EQ(summary(*o),
            (std::vector<std::string>{"planned cudaPackages.libcufft 11.2.1.3, cudaPackages.cuda_cudart 12.4.131",
                                      "planned cudaPackages.cuda_nvcc 12.4.131"}));
  auto old = resolve(fixture(), {"dep:generic/cufft@<12", "dep:virtual/compiler/cuda@<12"});
  ASSERT_TRUE(old) << old.error().message;
  EXPECT_EQ(summary(*old),
            (std::vector<std::string>{"planned cudaPackages_11.libcufft 10.9.0.58, cudaPackages_11.cuda_cudart 11.8.89",
                                      "planned cudaPackages_11.cuda_nvcc 11.8.89"}));
  EXPECT_EQ(plan::shell_line(old->steps.at(0).command),
            "nix profile install 'nixpkgs#cudaPackages_11.libcufft' 'nixpkgs#cudaPackages_11.cuda_cudart' "
            "'nixpkgs#cudaPackages_11.cuda_nvcc'");
}

TEST_F(NixProviderTest, GccAndItsVersionedAttributesShareAPname) {
  auto o = resolve(fixture(), {"dep:virtual/compiler/c@<13"}, Category::build);
  ASSERT_TRUE(o) << o.error().message;
  EXPECT_EQ(summary(*o), std::vector<std::string>{"planned gcc12 12.4.0"});
}

// A profile (manifest.json v3) with openssl_3_3 and cudaPackages_11.cuda_nvcc installed: they
// meet what they can as they are, and nothing is planned for them.
TEST_F(NixProviderTest, InstalledStandInsMeetNeeds) {
  auto o = resolve(fixture(test::data_path("nix/profiles/v3")),
                   {"dep:generic/openssl@>=3", "dep:generic/hello", "dep:virtual/compiler/cuda"}, Category::build);
  ASSERT_TRUE(o) << o.error().message;
  auto s = summary(*o);
  EXPECT_EQ(s[0], "satisfied openssl_3_3 3.3.1");
  EXPECT_EQ(s[2], "satisfied cudaPackages_11.cuda_nvcc 11.8.89");
  EXPECT_EQ(o->requirements[0].packages[0].where, test::data_path("nix/profiles/v3"));
  EXPECT_TRUE(o->steps.empty() || o->steps[0].command.back() != "nixpkgs#openssl")
      << plan::shell_line(o->steps[0].command);
}

TEST_F(NixProviderTest, ANixEnvProfileMakesNixEnvCommands) {
  // A profile that nix-env manages (manifest.nix); its packages need nix-env to be read, which is
  // not on this PATH: a warning, and the plan still uses nix-env's command.
  std::string profile = test::temp_dir();
  std::ofstream(profile + "/manifest.nix") << "[ ]\n";
  auto o = resolve(fixture(profile), {"dep:generic/cmake"}, Category::build);
  ASSERT_TRUE(o) << o.error().message;
  ASSERT_EQ(o->steps.size(), 1u);
  EXPECT_EQ(plan::shell_line(o->steps[0].command), "nix-env -p " + profile + " -iA nixpkgs.cmake");
  ASSERT_FALSE(ctx_.warnings().empty());
  EXPECT_EQ(ctx_.warnings().back(),
            profile + " is a nix-env profile, and nix-env is not on PATH: its packages are not read");
}

TEST_F(NixProviderTest, TheCacheIsKeyedOnTheIndexAndTheProfile) {
  std::string index = test::temp_dir() + "/index.json";
  fs::copy_file(test::data_path("nix/nix-env-qaP.json"), index);
  ProviderOptions o = fixture();
  o.index = index;
  auto first = resolve(o, {"dep:generic/openssl@>=3.3"});
  ASSERT_TRUE(first) << first.error().message;
  auto second = resolve(o, {"dep:generic/openssl@>=3.3"});  // from the .solv cache
  ASSERT_TRUE(second) << second.error().message;
  EXPECT_EQ(summary(*second), summary(*first));
  // A new index: openssl_3_3 gone.
  std::string text = test::read_file(index);
  auto at = text.find("\"openssl_3_3\"");
  ASSERT_NE(at, std::string::npos);
  text.replace(at, 13, "\"openssl_3_x\"");
  std::ofstream(index) << text;
  auto third = resolve(o, {"dep:generic/openssl@>=3.3"});
  ASSERT_TRUE(third) << third.error().message;
  EXPECT_EQ(summary(*third), std::vector<std::string>{"planned openssl_3_x 3.3.1"});
}

TEST_F(NixProviderTest, AMissingIndexFileIsBadInput) {
  ProviderOptions o = fixture();
  o.index = "/nonexistent/packages.json";
  auto r = resolve(o, {"dep:generic/zlib"});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ExitCode::bad_input);
  EXPECT_EQ(r.error().message, "/nonexistent/packages.json: no such nixpkgs index (--nix-index takes a file or a URL)");
}

// A channel's packages.json.br over HTTP: brotli bytes stored as they are and read by the
// provider; the channel's git-revision pins the commands.
class NixChannelTest : public NixProviderTest {
 protected:
  void SetUp() override {
    NixProviderTest::SetUp();
    if (!test::have_brotli()) GTEST_SKIP() << "the tests were built without libbrotlienc";
    packages_ = test::read_file(test::data_path("nix/packages.json"));
    test::Route br;
    br.body = test::encode(test::Encoding::brotli, packages_);
    br.etag = "\"pj1\"";
    server_.route("/nixos-24.05/packages.json.br", br);
    server_.route("/nixos-24.05/git-revision", {.body = std::string(kRevision) + "\n"});
  }
  ProviderOptions channel(const std::string& path = "/nixos-24.05/packages.json.br") {
    ProviderOptions o;
    o.index = server_.url(path);
    return o;
  }
  std::string packages_;
  test::HttpServer server_;
};

TEST_F(NixChannelTest, ReadsTheBrotliIndexAndPinsTheChannelsRevision) {
  auto o = resolve(channel(), {"dep:generic/openssl@>=3.3", "dep:generic/cmake"});
  ASSERT_TRUE(o) << o.error().message;
  EXPECT_EQ(summary(*o), (std::vector<std::string>{"planned openssl_3_3 3.3.1", "planned cmake 3.29.6"}));
  ASSERT_EQ(o->steps.size(), 1u);
  EXPECT_EQ(o->steps[0].command,
            (std::vector<std::string>{"nix", "profile", "install",
                                      std::string("github:NixOS/nixpkgs/") + kRevision + "#openssl_3_3",
                                      std::string("github:NixOS/nixpkgs/") + kRevision + "#cmake"}));
  EXPECT_EQ(server_.count("/nixos-24.05/packages.json.br"), 1);
  // Unfree CUDA is unavailable in this index: the need says so.
  auto cuda = resolve(channel(), {"dep:virtual/compiler/cuda"}, Category::build);
  ASSERT_TRUE(cuda) << cuda.error().message;
  EXPECT_EQ(cuda->requirements[0].status, plan::Status::unsatisfiable);
  EXPECT_NE(cuda->requirements[0].message.find("cudaPackages.cuda_nvcc is not in the index"), std::string::npos)
      << cuda->requirements[0].message;
}

TEST_F(NixChannelTest, APlainIndexSentWithContentEncodingIsDecodedByTheFetcher) {
  test::Route plain;
  plain.body = packages_;
  plain.encoding = test::Encoding::brotli;
  server_.route("/unstable/packages.json", plain);
  auto o = resolve(channel("/unstable/packages.json"), {"dep:generic/zlib"});
  ASSERT_TRUE(o) << o.error().message;
  EXPECT_EQ(summary(*o), std::vector<std::string>{"planned zlib 1.3.1"});
  auto seen = server_.seen("/unstable/packages.json");
  ASSERT_FALSE(seen.empty());
  EXPECT_NE(seen[0].header("accept-encoding").find("br"), std::string::npos);
  // No git-revision there: the registry's nixpkgs.
  EXPECT_EQ(o->steps[0].command.back(), "nixpkgs#zlib");
}

TEST_F(NixChannelTest, ADamagedDownloadIsNamedAndDroppedFromTheCache) {
  test::Route cut;
  std::string packed = test::encode(test::Encoding::brotli, packages_);
  cut.body = packed.substr(0, packed.size() / 2);
  server_.route("/broken/packages.json.br", cut);
  use_cache_ = false;
  auto o = resolve(channel("/broken/packages.json.br"), {"dep:generic/zlib"});
  ASSERT_FALSE(o);
  EXPECT_EQ(o.error().message, server_.url("/broken/packages.json.br") + ": brotli data ends early at byte offset " +
                                   std::to_string(cut.body.size()) +
                                   " (expected the rest of the stream; the file may be truncated) (the cached copy "
                                   "was removed; the next run downloads it again)");
  server_.route("/broken/packages.json.br", {.body = packed});
  auto again = resolve(channel("/broken/packages.json.br"), {"dep:generic/zlib"});
  ASSERT_TRUE(again) << again.error().message;
  EXPECT_EQ(server_.count("/broken/packages.json.br"), 2);
}

TEST_F(NixChannelTest, AMissingChannelNamesTheUrl) {
  auto o = resolve(channel("/nixos-99.99/packages.json.br"), {"dep:generic/zlib"});
  ASSERT_FALSE(o);
  EXPECT_EQ(o.error().code, ExitCode::environment);
  EXPECT_NE(o.error().message.find(server_.url("/nixos-99.99/packages.json.br")), std::string::npos)
      << o.error().message;
}

// Without --nix-index, nix on the machine makes the index: Debian's nix-bin, offline, on the test
// nixpkgs found through NIX_PATH, kept in the cache until the channel changes.
TEST_F(NixProviderTest, NixEnvMakesTheIndexWhenNoneIsGiven) {
  EXTDEPS_NIX_OR_SKIP(nix);
  std::map<std::string, std::string> env = nix.env;
  env["NIX_PATH"] = "nixpkgs=" + test::data_path("nix/nixpkgs");
  ctx_ = Context::for_test("/", env);
  ctx_.set_cache_dir(cache_);
  ProviderOptions o;
  auto first = resolve(o, {"dep:generic/openssl@>=3.3", "dep:generic/cufft@<12"});
  ASSERT_TRUE(first) << first.error().message;
  EXPECT_EQ(summary(*first), (std::vector<std::string>{
                                 "planned openssl_3_3 3.3.1",
                                 "planned cudaPackages_11.libcufft 10.9.0.58, cudaPackages_11.cuda_cudart 11.8.89"}));
  std::vector<std::string> made;
  for (const auto& f : fs::directory_iterator(cache_ + "/nix")) made.push_back(f.path().filename().string());
  ASSERT_EQ(made.size(), 1u);
  EXPECT_EQ(made[0].rfind("nixpkgs-", 0), 0u);
  // The same nixpkgs: the kept index is used, not made again.
  struct stat before {};
  ::stat((cache_ + "/nix/" + made[0]).c_str(), &before);
  auto second = resolve(o, {"dep:generic/zlib"});
  ASSERT_TRUE(second) << second.error().message;
  struct stat after {};
  ::stat((cache_ + "/nix/" + made[0]).c_str(), &after);
  EXPECT_EQ(before.st_mtim.tv_nsec, after.st_mtim.tv_nsec);
  EXPECT_EQ(before.st_mtim.tv_sec, after.st_mtim.tv_sec);
}

// Without a nixpkgs on NIX_PATH, the flake registry's nixpkgs: `nix search nixpkgs ^ --json`,
// here a local flake over the test nixpkgs registered as nixpkgs (no network: the global
// registry is an empty local file).
TEST_F(NixProviderTest, NixSearchMakesTheIndexWhereOnlyFlakesAre) {
  EXTDEPS_NIX_OR_SKIP(nix);
  fs::create_directories(nix.dir + "/flake");
  fs::copy(test::data_path("nix/nixpkgs"), nix.dir + "/flake/nixpkgs", fs::copy_options::recursive);
  std::ofstream(nix.dir + "/flake/flake.nix") << "{ outputs = { self }: { legacyPackages.x86_64-linux = import "
                                                 "./nixpkgs { system = \"x86_64-linux\"; }; }; }\n";
  std::ofstream(nix.dir + "/registry.json") << R"({"flakes": [], "version": 2})";
  std::ofstream(nix.dir + "/conf/nix.conf", std::ios::app) << "flake-registry = " << nix.dir << "/registry.json\n";
  std::string err;
  ASSERT_TRUE(nix.run(
      "nix --extra-experimental-features 'nix-command flakes' registry add nixpkgs path:" + nix.dir + "/flake", &err))
      << err;
  ctx_ = Context::for_test("/", nix.env);  // no NIX_PATH
  ctx_.set_cache_dir(cache_);
  auto o = resolve(ProviderOptions{}, {"dep:generic/openssl@>=3.3", "dep:virtual/compiler/cuda@<12"});
  ASSERT_TRUE(o) << o.error().message;
  EXPECT_EQ(summary(*o),
            (std::vector<std::string>{"planned openssl_3_3 3.3.1", "planned cudaPackages_11.cuda_nvcc 11.8.89"}));
  std::vector<std::string> made;
  for (const auto& f : fs::directory_iterator(cache_ + "/nix")) made.push_back(f.path().filename().string());
  ASSERT_EQ(made.size(), 1u);
  EXPECT_EQ(made[0].rfind("search-", 0), 0u);
  // nix search prints every attribute, without meta: the broken libfoo is there.
  EXPECT_NE(test::read_file(cache_ + "/nix/" + made[0]).find("\"legacyPackages.x86_64-linux.libfoo\""),
            std::string::npos);
}

// Told the names the solve can ask for, the provider loads those, the members of their families
// and what is installed, and nothing else of the index.
TEST_F(NixProviderTest, RestrictedToNamesItLoadsTheirFamiliesAndWhatIsInstalled) {
  auto p = make_provider(ctx_, fixture(test::data_path("nix/profiles/v3")));
  fetch::Fetcher fetcher(ctx_, fetch_options());
  ASSERT_TRUE(p->prepare(ctx_, fetcher));
  p->restrict_to({"openssl", "cudaPackages.libcufft", "hello"});
  std::vector<std::string> available, installed;
  ASSERT_TRUE(p->load(
      ctx_, [&](PackageRecord&& r) { available.push_back(r.name + " " + r.family + " " + r.set); },
      [&](PackageRecord&& r) { installed.push_back(r.name); }));
  std::sort(available.begin(), available.end());
  EXPECT_EQ(available, (std::vector<std::string>{"cudaPackages.libcufft libcufft cudaPackages",
                                                 "cudaPackages_11.cuda_nvcc cuda_nvcc cudaPackages_11",
                                                 "cudaPackages_11.libcufft libcufft cudaPackages_11", "hello hello ",
                                                 "openssl openssl ", "openssl_3_3 openssl "}));
  EXPECT_EQ(installed.size(), 5u);
}

TEST_F(NixProviderTest, WithoutNixAndWithoutAnIndexTheErrorSaysWhatToDo) {
  ProviderOptions o;
  auto r = resolve(o, {"dep:generic/zlib"});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ExitCode::environment);
  EXPECT_EQ(r.error().message.rfind("no nixpkgs index: nix-env found no nixpkgs on NIX_PATH", 0), 0u)
      << r.error().message;
}

// A nix-env profile built here by nix-env -i (manifest.nix): the provider asks nix-env what is
// installed, and the installed openssl meets the need.
TEST_F(NixProviderTest, ReadsARealNixEnvProfile) {
  EXTDEPS_NIX_OR_SKIP(nix);
  std::string profile = nix.dir + "/profile";
  std::string err;
  ASSERT_TRUE(nix.run("nix-env -p " + profile + " -f " + test::data_path("nix/nixpkgs") +
                          " --argstr system x86_64-linux -iA openssl_3_3 cmake",
                      &err))
      << err;
  ctx_ = Context::for_test("/", nix.env);
  ctx_.set_cache_dir(cache_);
  auto o = resolve(fixture(profile), {"dep:generic/openssl@>=3"});
  ASSERT_TRUE(o) << o.error().message;
  // nix-env knows the pname, not the attribute: openssl 3.3.1 (pname openssl) is installed.
  EXPECT_EQ(summary(*o), std::vector<std::string>{"satisfied openssl 3.3.1"});
  EXPECT_EQ(o->requirements[0].packages[0].where, profile);
  // New packages go in with nix-env, into that profile.
  auto more = resolve(fixture(profile), {"dep:generic/zlib"});
  ASSERT_TRUE(more) << more.error().message;
  ASSERT_EQ(more->steps.size(), 1u);
  EXPECT_EQ(plan::shell_line(more->steps[0].command), "nix-env -p " + profile + " -iA nixpkgs.zlib");
}

TEST(NixCommands, BothFrontendsProfilesAndRevisions) {
  std::vector<PlannedPackage> pk{{"openssl", "3.0.14", "", ""}, {"cudaPackages.cuda_nvcc", "12.4.131", "", ""}};
  auto line = [&](CommandOptions o) { return plan::shell_line(install_commands(pk, o).at(0).argv); };
  EXPECT_EQ(line({}), "nix profile install 'nixpkgs#openssl' 'nixpkgs#cudaPackages.cuda_nvcc'");
  EXPECT_EQ(line({Frontend::env, "", ""}), "nix-env -iA nixpkgs.openssl nixpkgs.cudaPackages.cuda_nvcc");
  EXPECT_EQ(line({Frontend::profile, "/p", kRevision}),
            std::string("nix profile install --profile /p 'github:NixOS/nixpkgs/") + kRevision +
                "#openssl' 'github:NixOS/nixpkgs/" + kRevision + "#cudaPackages.cuda_nvcc'");
  EXPECT_EQ(line({Frontend::env, "/p", kRevision}),
            std::string("nix-env -p /p -f https://github.com/NixOS/nixpkgs/archive/") + kRevision +
                ".tar.gz -iA openssl cudaPackages.cuda_nvcc");
  EXPECT_TRUE(install_commands({}, {}).empty());
  // An index read through a channel names it, as the user's nix-env would (-iA nixos.openssl).
  EXPECT_EQ(line({Frontend::env, "", "", "nixos"}), "nix-env -iA nixos.openssl nixos.cudaPackages.cuda_nvcc");
  EXPECT_EQ(line({Frontend::profile, "", "", "nixos"}),
            "nix profile install 'nixpkgs#openssl' 'nixpkgs#cudaPackages.cuda_nvcc'");
}

}  // namespace
}  // namespace extdeps::nix
