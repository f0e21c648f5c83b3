// `extdeps manual`: the manual page says every command, every option of core's table and of the
// providers, and every variable, as the CLI and the registries have them (the expected names come
// from the table and the registries, not from the page); groff renders it without a warning; and
// the build wrote the same page to build/share/extdeps.1 for `cmake --install`.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "core/config/command_options.h"
#include "core/config/variables.h"
#include "core/provider/descriptor.h"
#include "tests/support/cli_fixture.h"
#include "tests/test_support.h"

namespace fs = std::filesystem;

namespace extdeps {
namespace {

// As the page writes a name: '-' is "\-".
std::string roff_name(std::string_view s) {
  std::string out;
  for (char c : s) out += c == '-' ? std::string("\\-") : std::string(1, c);
  return out;
}

class ManualTest : public test::CliFixture {
 protected:
  std::string page() {
    auto r = run({"manual"});
    EXPECT_EQ(r.rc, 0) << r.err;
    EXPECT_TRUE(r.err.empty()) << r.err;
    return r.out;
  }
};

TEST_F(ManualTest, SaysEveryCommandOptionAndVariable) {
  const std::string man = page();
  EXPECT_NE(man.find(".TH EXTDEPS 1 "), std::string::npos);
  for (unsigned i = 1; i < static_cast<unsigned>(config::Command::count); ++i) {
    const std::string words(config::command_words(static_cast<config::Command>(i)));
    EXPECT_NE(man.find(".SS \"extdeps " + roff_name(words) + "\"\n"), std::string::npos) << words;
  }
  for (const config::CommandOption& o : config::command_options())
    if (o.commands != 0)  // a key of the library only (program, env, reset) is no flag
      EXPECT_NE(man.find("\\fB\\-\\-" + roff_name(o.name) + "\\fR"), std::string::npos) << o.name;
  for (const ProviderDescriptor* d : provider_descriptors()) {
    EXPECT_NE(man.find(".B " + roff_name(d->name) + "\n"), std::string::npos) << d->name;
    for (const ProviderOption& o : d->options)
      EXPECT_NE(man.find("\\fB\\-\\-" + roff_name(o.name) + "\\fR"), std::string::npos) << o.name;
  }
  for (const config::Variable& v : config::variables())
    EXPECT_NE(man.find(".TP\n.B " + roff_name(v.name) + "\n"), std::string::npos) << v.name;
  // Only the requests of man(7) the page means to use start a line.
  const std::set<std::string> requests{".TH", ".SH", ".SS", ".TP", ".PP", ".B", ".I", ".\\\""};
  std::istringstream lines(man);
  for (std::string line; std::getline(lines, line);) {
    if (line.empty() || line[0] != '.') continue;
    EXPECT_TRUE(requests.count(line.substr(0, line.find(' ')))) << line;
  }
  // Every text went through the escaping once: a hyphen is "\-" everywhere but the comment line
  // (man shows a bare '-' as a typographic hyphen, and a flag must read as typed).
  std::istringstream again(man);
  for (std::string line; std::getline(again, line);) {
    if (line.starts_with(".\\\"")) continue;
    for (std::size_t at = line.find('-'); at != std::string::npos; at = line.find('-', at + 1))
      EXPECT_TRUE(at > 0 && line[at - 1] == '\\') << "an unescaped '-' in: " << line;
  }
}

TEST_F(ManualTest, GroffRendersItWithoutAWarning) {
  if (!test::command_output("command -v groff")) GTEST_SKIP() << "groff is not installed (groff-base)";
  const std::string path = test::temp_dir() + "/extdeps.1";
  std::ofstream(path) << page();
  // -ww: every warning; -z: no output, only the diagnostics. 2>&1: they are what is read.
  auto said = test::command_output("groff -man -Tutf8 -ww -z '" + path + "' 2>&1");
  ASSERT_TRUE(said.has_value()) << "groff failed on " << path;
  EXPECT_EQ(*said, "");
  // Rendered as plain text (-Tascii, -P-c -P-b -P-u: no escapes, no overstrikes), a flag reads as
  // it is typed.
  auto text = test::command_output("groff -man -Tascii -P-c -P-b -P-u '" + path + "' 2>/dev/null");
  ASSERT_TRUE(text.has_value());
  EXPECT_NE(text->find("--manager NAME"), std::string::npos) << *text;
}

TEST_F(ManualTest, TheBuildWroteTheSamePageAndCompletions) {
  const fs::path share = fs::path(EXTDEPS_BINARY).parent_path() / "share";
  for (const char* f : {"extdeps.1", "extdeps.bash", "_extdeps", "extdeps.fish"})
    ASSERT_TRUE(fs::exists(share / f)) << share / f << " (cmake/write_docs.cmake)";
  EXPECT_EQ(test::read_file((share / "extdeps.1").string()), page());
  EXPECT_EQ(test::read_file((share / "extdeps.bash").string()), run({"completion", "bash"}).out);
}

}  // namespace
}  // namespace extdeps
