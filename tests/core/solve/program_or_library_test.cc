// An id that is both a program and a library (ffmpeg, gdal, graphviz, imagemagick; issue 14):
// a run need is met by the library or by the program, whichever is installed, and with neither,
// the library is planned (what a compiled extension loads). Real bookworm names and versions
// (apt-cache policy on bookworm), through the shipped debian.toml.
#include <gtest/gtest.h>

#include "core/declare/declare.h"
#include "core/plan/plan.h"
#include "core/solve/solve.h"
#include "tests/core/mapping/shipped.h"
#include "tests/core/solve/solve_fixture.h"
#include "tests/support/providers.h"

namespace extdeps::solve_testing {
namespace {

struct Case {
  const char* id;
  std::vector<std::pair<const char*, const char*>> library;  // name, bookworm version
  std::pair<const char*, const char*> program;
};

const std::vector<Case> kCases = {
    {"dep:generic/graphviz",
     {{"libgvc6", "2.42.2-7+deb12u1"},
      {"libcgraph6", "2.42.2-7+deb12u1"},
      {"libcdt5", "2.42.2-7+deb12u1"},
      {"libpathplan4", "2.42.2-7+deb12u1"},
      {"libgvpr2", "2.42.2-7+deb12u1"},
      {"libxdot4", "2.42.2-7+deb12u1"},
      {"liblab-gamut1", "2.42.2-7+deb12u1"}},
     {"graphviz", "2.42.2-7+deb12u1"}},
    {"dep:generic/gdal", {{"libgdal32", "3.6.2+dfsg-1+b2"}}, {"gdal-bin", "3.6.2+dfsg-1+b2"}},
    {"dep:generic/ffmpeg",
     {{"libavcodec59", "7:5.1.9-0+deb12u1"},
      {"libavdevice59", "7:5.1.9-0+deb12u1"},
      {"libavfilter8", "7:5.1.9-0+deb12u1"},
      {"libavformat59", "7:5.1.9-0+deb12u1"},
      {"libavutil57", "7:5.1.9-0+deb12u1"},
      {"libswresample4", "7:5.1.9-0+deb12u1"},
      {"libswscale6", "7:5.1.9-0+deb12u1"}},
     {"ffmpeg", "7:5.1.9-0+deb12u1"}},
};

class ProgramOrLibrary : public ::testing::Test {
 protected:
  plan::Outcome run_need(const Case& c, bool program_installed) {
    auto p = std::make_unique<MemoryProvider>("debian", "apt", *test::compiled_in("apt")->scheme);
    for (auto [n, v] : c.library) p->offered.push_back(rec(n, v));
    p->offered.push_back(rec(c.program.first, c.program.second));
    if (program_installed) p->present.push_back(rec(c.program.first, c.program.second));
    std::vector<std::unique_ptr<Provider>> providers;
    providers.push_back(std::move(p));
    Requirement r;
    auto url = declare::parse_depurl(c.id);
    EXPECT_TRUE(url.ok());
    r.url = *url;
    r.category = Category::run;
    r.spec = c.id;
    solve::Options opt;
    opt.use_cache = false;
    auto out = plan::make_plan(solve::resolve(ctx_, {r}, tables_, providers, opt));
    EXPECT_TRUE(out.ok()) << (out.ok() ? "" : out.error().message);
    return out.ok() ? *out : plan::Outcome{};
  }
  Context ctx_ = Context::for_test("/");
  mapping::Tables tables_ = [] {
    auto t = mapping::table_testing::shipped();
    mapping::select_for_host(t, mapping::HostRelease{"debian", {}, "bookworm", "12"});
    return t;
  }();
};

TEST_F(ProgramOrLibrary, AnInstalledProgramMeetsARunNeed) {
  EXTDEPS_NEEDS_PROVIDER("apt");
  for (const auto& c : kCases) {
    auto o = run_need(c, true);
    ASSERT_EQ(o.requirements.size(), 1u) << c.id;
    EXPECT_EQ(o.requirements[0].status, plan::Status::satisfied) << c.id;
    ASSERT_EQ(o.requirements[0].packages.size(), 1u) << c.id;
    EXPECT_EQ(o.requirements[0].packages[0].name, c.program.first) << c.id;
    EXPECT_TRUE(o.steps.empty()) << c.id;
  }
}

TEST_F(ProgramOrLibrary, WithNeitherTheLibraryIsPlanned) {
  EXTDEPS_NEEDS_PROVIDER("apt");
  for (const auto& c : kCases) {
    auto o = run_need(c, false);
    ASSERT_EQ(o.requirements.size(), 1u) << c.id;
    EXPECT_EQ(o.requirements[0].status, plan::Status::planned) << c.id;
    ASSERT_FALSE(o.requirements[0].packages.empty()) << c.id;
    EXPECT_EQ(o.requirements[0].packages[0].name, c.library[0].first) << c.id;
  }
}

}  // namespace
}  // namespace extdeps::solve_testing
