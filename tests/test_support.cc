#include "tests/test_support.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

namespace fs = std::filesystem;

namespace extdeps::test {

namespace {
struct TempDirs {
  std::vector<std::string> dirs;
  ~TempDirs() {
    std::error_code ec;
    for (auto& d : dirs) fs::remove_all(d, ec);
  }
};
TempDirs& temp_dirs() {
  static TempDirs t;
  return t;
}
}  // namespace

std::string data_path(const std::string& rel) { return std::string(EXTDEPS_TEST_DATA) + "/" + rel; }

std::optional<std::string> shared_data(const std::string& rel) {
  fs::path p = fs::path(EXTDEPS_SHARED_DATA) / rel;
  std::error_code ec;
  if (!fs::exists(p, ec)) return std::nullopt;
  return fs::weakly_canonical(p, ec).string();
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string json_schema_problem(const std::string& schema, const std::string& doc) {
  if (std::system("/usr/bin/python3 -c 'import jsonschema' >/dev/null 2>&1") != 0)
    return "/usr/bin/python3 with jsonschema is missing (Debian: python3-jsonschema)";
  const std::string check =
      "/usr/bin/python3 -c 'import json,sys,jsonschema; "
      "jsonschema.validate(json.load(open(sys.argv[2])), json.load(open(sys.argv[1])))' '" +
      schema + "' '" + doc + "' 2>&1";
  auto out = command_output(check + "; echo \"exit $?\"");
  if (!out) return "cannot run /usr/bin/python3";
  if (out->ends_with("exit 0\n")) return "";
  return *out;
}

std::string temp_dir() {
  std::string tmpl = (fs::temp_directory_path() / "extdeps-test-XXXXXX").string();
  std::vector<char> buf(tmpl.begin(), tmpl.end());
  buf.push_back('\0');
  const char* d = mkdtemp(buf.data());
  std::string dir = d ? d : tmpl;
  temp_dirs().dirs.push_back(dir);
  return dir;
}

std::optional<std::string> command_output(const std::string& command) {
  FILE* p = popen(command.c_str(), "r");
  if (!p) return std::nullopt;
  std::string out;
  char buf[65536];
  for (std::size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
  if (pclose(p) != 0) return std::nullopt;
  return out;
}

}  // namespace extdeps::test
