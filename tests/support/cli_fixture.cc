#include "tests/support/cli_fixture.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/cli/cli.h"
#include "core/context/context.h"
#include "tests/test_support.h"

namespace fs = std::filesystem;

namespace extdeps::test {

void CliFixture::SetUp() {
  root_ = temp_dir() + "/root";
  fs::copy(data_path("apt/bookworm"), root_, fs::copy_options::recursive);
  // Take libxml2-dev out of the installed set, so that it has to be planned.
  std::string status = read_file(root_ + "/var/lib/dpkg/status");
  auto start = status.find("Package: libxml2-dev\n");
  ASSERT_NE(start, std::string::npos);
  auto end = status.find("\n\n", start);
  status.erase(start, end == std::string::npos ? std::string::npos : end + 2 - start);
  std::ofstream(root_ + "/var/lib/dpkg/status") << status;
  project_ = temp_dir();
  cache_ = temp_dir();
}

void CliFixture::write_project(const std::string& name, const std::string& text) {
  std::ofstream(project_ + "/" + name) << text;
}

CliRun CliFixture::run(std::vector<std::string> args, std::map<std::string, std::string> env, std::string input) {
  env.emplace("EXTDEPS_MAPPINGS_DIR", std::string(EXTDEPS_SOURCE_MAPPINGS_DIR));
  env.emplace("PKG_CONFIG_LIBDIR", "");
  auto ctx = Context::for_test(root_, env);
  ctx.set_cache_dir(cache_);
  ctx.set_stdout_is_terminal(stdout_is_terminal_);
  ctx.set_command_runner([this](const std::vector<std::string>& argv) {
    commands_.push_back(argv);
    return exit_status_;
  });
  std::istringstream in(input);
  ctx.set_input(&in);
  std::ostringstream out, err;
  int rc = cli::run(ctx, args, out, err);
  return {rc, out.str(), err.str(), ctx.warnings()};
}

}  // namespace extdeps::test
