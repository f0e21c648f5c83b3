// A package name reaches an install command's argv only when its manager's name rule accepts
// it, whatever the mapping table's manager key or the index said: '-oDPkg::Pre-Invoke::=...'
// would be an option of apt-get, '--override-channels' one of conda.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "core/mapping/names.h"
#include "core/provider/provider.h"
#include "providers/apt/apt_provider.h"
#include "providers/conda/conda_provider.h"
#include "providers/conda/conda_version.h"
#include "providers/pypi/pypi_provider.h"
#include "tests/core/solve/solve_fixture.h"
#include "tests/support/cli_fixture.h"
#include "tests/test_support.h"

namespace extdeps::solve_testing {
namespace {

const char* kHostile = "-oDPkg::Pre-Invoke::=touch /tmp/pwned";

Result<plan::Outcome> resolve_raw(SolveTest& t, const Context& ctx, mapping::Tables& tables,
                                  std::vector<std::unique_ptr<Provider>>& providers, std::vector<Requirement> reqs) {
  for (auto& tb : tables.tables)
    std::sort(tb.entries.begin(), tb.entries.end(), [](const auto& a, const auto& b) { return a.id < b.id; });
  (void)t;
  solve::Options opt;
  opt.use_cache = false;
  return plan::make_plan(solve::resolve(ctx, reqs, tables, providers, opt));
}

class InjectionTest : public SolveTest {};

// A debian table without `manager = "apt"` and an index that has the package: the plan is
// refused, naming the name and the rule.
TEST_F(InjectionTest, AnOptionShapedDebianNameIsRefusedWhateverTheTableSays) {
  apt_->offered.push_back(rec(kHostile, "1.0"));
  tables_.tables[0].manager.clear();
  tables_.tables[0].entries.push_back(entry("dep:generic/evil", {{kHostile}}));
  auto r = resolve_raw(*this, ctx_, tables_, providers_, {req("dep:generic/evil")});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ExitCode::bad_input);
  EXPECT_EQ(r.error().message,
            std::string("apt: '") + kHostile +
                "' is not a valid Debian package name; refusing to put it in the install command (it came "
                "from a mapping table or the debian index)");
}

TEST_F(InjectionTest, OptionShapedVersionsAndBuildsAreRefused) {
  EXPECT_EQ(*apt_->command_problem({"evil", "--force-yes", "", ""}),
            "'--force-yes' is not a valid version (it starts with '-', as an option does)");
  EXPECT_EQ(*apt_->command_problem({"evil", "1.0", "", "h0 --yes"}),
            "'h0 --yes' is not a valid build string (expected letters, digits and . + - ~ : _ ! * ,)");
  EXPECT_FALSE(apt_->command_problem({"libxml2-dev", "2.9.14+dfsg-1.3~deb12u1", "amd64", ""}));
  // The apt provider's own rule takes "name:arch".
  auto real = apt::make_provider(Context::for_test(test::data_path("apt/bookworm")));
  EXPECT_FALSE(real->command_problem({"libc6:i386", "2.36-9+deb12u9", "i386", ""}));
  EXPECT_EQ(*real->command_problem({"libc6:-oFoo=1", "2.36", "", ""}), "'-oFoo=1' is not a valid Debian architecture");
  EXPECT_EQ(*real->command_problem({"libc6", "-2.36", "", ""}),
            "'-2.36' is not a valid Debian version (it starts with '-', as an option does)");
}

// A conda channel that publishes a package named like one of conda's options.
TEST_F(InjectionTest, ACondaPackageNamedLikeAnOptionIsRefused) {
  auto conda = std::make_unique<MemoryProvider>("conda-forge", "conda", version::conda_scheme);
  PackageRecord r = rec("--override-channels", "1.0");
  r.arch = "noarch";
  conda->offered = {r};
  providers_.clear();
  providers_.push_back(std::move(conda));
  mapping::Table t;
  t.ecosystem = "conda-forge";
  t.entries = {entry("dep:generic/evil", {{"--override-channels"}})};
  t.entries[0].by_category[Category::host][0].version.kind = "";
  t.entries[0].by_category[Category::build][0].version.kind = "";
  tables_.tables = {t};
  auto out = resolve_raw(*this, ctx_, tables_, providers_, {req("dep:generic/evil")});
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.error().message.rfind("conda: '--override-channels' is not a valid conda package name", 0), 0u)
      << out.error().message;
}

// The good names still plan, and every command ends its options before the names.
TEST_F(InjectionTest, CommandsPutDoubleDashBeforeTheNames) {
  auto apt =
      apt::install_commands({{"libxml2-dev", "2.9.14+dfsg-1.3~deb12u1", "amd64", ""}}, apt::Architectures{"amd64", {}});
  ASSERT_EQ(apt.size(), 1u);
  EXPECT_EQ(apt[0].argv,
            (std::vector<std::string>{"apt-get", "install", "-y", "--no-install-recommends", "-o",
                                      "DPkg::Lock::Timeout=300", "--", "libxml2-dev=2.9.14+dfsg-1.3~deb12u1"}));
  auto conda = conda::install_commands({{"zlib", "1.3.1", "", "h4ab18f5_1"}}, {conda::Frontend::conda, "", {}});
  ASSERT_EQ(conda.size(), 1u);
  EXPECT_EQ(conda[0].argv, (std::vector<std::string>{"conda", "install", "-y", "--", "zlib=1.3.1=h4ab18f5_1"}));
  auto pip = pypi::install_commands({{"numpy", "2.1.0", "", ""}}, pypi::Frontend::pip, "python3",
                                    {std::string(pypi::kDefaultIndex)});
  ASSERT_EQ(pip.size(), 1u);
  EXPECT_EQ(pip[0].argv, (std::vector<std::string>{"python3", "-m", "pip", "install", "--", "numpy==2.1.0"}));
}

TEST(NameRules, EveryManagerRefusesOptionShapedNames) {
  for (std::string_view manager : {"apt", "conda", "nix", "pypi", "", "homebrew"}) {
    EXPECT_TRUE(mapping::name_problem(manager, "-oDPkg::Pre-Invoke::=x")) << manager;
    EXPECT_TRUE(mapping::name_problem(manager, "--override-channels")) << manager;
    EXPECT_TRUE(mapping::name_problem(manager, "a\nb")) << manager;
  }
  EXPECT_FALSE(mapping::name_problem("", "libxml2-dev"));
  EXPECT_EQ(*mapping::name_problem("", "a\x1b[2Jb"),
            "'a\\x1b[2Jb' is not a valid name (it has a space or a control character)");
  EXPECT_FALSE(mapping::argument_problem("version", "1:2.9.14+dfsg-1.3~deb12u1"));
  EXPECT_TRUE(mapping::argument_problem("version", "-1"));
  EXPECT_TRUE(mapping::argument_problem("version", "1.0 --yes"));
}

}  // namespace
}  // namespace extdeps::solve_testing

namespace extdeps {
namespace {

class LintInjection : public test::CliFixture {};

// `mappings lint` refuses an option-shaped name in a table that says nothing of its manager (a
// detector's table, whose entries list modules), and the same table with package lists is
// refused for its shape.
TEST_F(LintInjection, ATableWithoutAManagerKeyStillRefusesOptionShapedNames) {
  std::string dir = test::temp_dir();
  std::string f = dir + "/debian.toml";
  std::ofstream(f) << "schema = 1\necosystem = \"debian\"\n\n[[id]]\n"
                      "id = \"dep:generic/evil\"\nmodules = [\"-oDPkg::Pre-Invoke::=touch /tmp/pwned\"]\n";
  auto r = run({"mappings", "lint", f});
  EXPECT_EQ(r.rc, 1) << r.out << r.err;
  EXPECT_NE(r.out.find(f + ":6:12: '-oDPkg::Pre-Invoke::=touch /tmp/pwned' is not a valid name (it starts with '-', "
                           "as an option does)"),
            std::string::npos)
      << r.out;
  std::ofstream(f) << "schema = 1\necosystem = \"debian\"\n\n[[id]]\n"
                      "id = \"dep:generic/evil\"\nhost = [\"-oDPkg::Pre-Invoke::=touch /tmp/pwned\"]\n";
  r = run({"mappings", "lint", f});
  EXPECT_EQ(r.rc, 1) << r.out << r.err;
  EXPECT_NE(r.out.find(f + ":6:1: unknown key 'host' in [[id]] dep:generic/evil (a detector's table lists 'modules' "
                           "for every category)"),
            std::string::npos)
      << r.out;
}

}  // namespace
}  // namespace extdeps
