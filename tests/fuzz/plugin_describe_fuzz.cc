// Fuzzes a provider plugin's answer to describe: the input is the answer's line, read by the real
// JSON reader (json::parse_document, with its depth bound) and checked by plugin::descriptor_of
// for the program extdeps-provider-x. Property: an accepted description names the plugin as its
// program does, has a scheme, and every option a word once, never a core option's name.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "core/config/command_options.h"
#include "core/json/document.h"
#include "core/plugin/plugin.h"
#include "tests/fuzz/fuzz_support.h"

using namespace extdeps;

namespace {

bool is_word(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) return false;
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text = fuzz::as_text(data, size);
  nlohmann::json message;
  if (json::parse_document(text, message) || !message.is_object()) return 0;
  auto d = plugin::descriptor_of(message, "/plugins/extdeps-provider-x");
  if (!d) {
    if (d.error().message.find("extdeps-provider-x") == std::string::npos)
      fuzz::fail("an error that does not name the plugin", d.error().message);
    return 0;
  }
  const ProviderDescriptor& desc = **d;
  if (desc.name != "x") fuzz::fail("a description accepted under another name", desc.name);
  if (!is_word(desc.ecosystem)) fuzz::fail("an ecosystem that is not a word", desc.ecosystem);
  std::set<std::string_view> seen;
  for (const auto& o : desc.options) {
    if (!is_word(o.name)) fuzz::fail("an option name that is not a word", o.name);
    if (!seen.insert(o.name).second) fuzz::fail("an option named twice", o.name);
    if (!config::commands_with_option(o.name).empty()) fuzz::fail("an option named like a core option", o.name);
  }
  return 0;
}
