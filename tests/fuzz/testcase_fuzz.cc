// Fuzzes `extdeps debug replay DIR` (solve::replay_testcase) on a folder that is anyone's: the
// input is the folder's testcase.t, then after a line "%%" the file a.repo, then after another
// "%%" the file result. Nothing is a property but ending: no crash, no hang, no read outside
// the folder (libsolv's reader gets only what the checks let through).
#include <cstdint>
#include <filesystem>
#include <string>

#include "core/solve/solve.h"
#include "tests/fuzz/fuzz_support.h"

using namespace extdeps;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input = fuzz::as_text(data, size);
  std::vector<std::string_view> parts;
  std::string_view rest = input;
  while (parts.size() < 2) {
    auto at = rest.find("\n%%\n");
    if (at == std::string_view::npos) break;
    parts.push_back(rest.substr(0, at));
    rest.remove_prefix(at + 4);
  }
  parts.push_back(rest);
  const std::string dir = fuzz::TempDir::path() + "/case";
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
  std::filesystem::create_directories(dir);
  const char* names[] = {"case/testcase.t", "case/a.repo", "case/result"};
  for (std::size_t i = 0; i < parts.size(); ++i) fuzz::TempDir::write(names[i], parts[i]);
  auto r = solve::replay_testcase(dir);
  if (!r && r.error().message.empty()) fuzz::fail("an error without a message", input);
  return 0;
}
