// Fuzzes `--host FILE` (detect::read_host_file: the input written as the file) and what is made
// of the facts it accepts: the JSON `detect --save` writes, each provider's host format (conda's
// and uv's variables) and the wheel-variant properties. Properties: the facts written as JSON read back as the same
// facts; a variable line is NAME=value with a plain value (no line break or shell character can be forged through a
// fact); the property lines are bounded and carry no control character.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "core/detect/host.h"
#include "core/detect/host_export.h"
#include "core/detect/host_json.h"
#include "core/provider/descriptor.h"
#include "tests/fuzz/fuzz_support.h"

using namespace extdeps;

namespace {

void check_variables(const std::string& text, std::string_view input) {
  for (std::string_view line : fuzz::split(text, '\n', 1000)) {
    if (line.empty()) continue;
    const auto eq = line.find('=');
    if (eq == std::string_view::npos || eq == 0) fuzz::fail("a variable line without NAME=", line, input);
    for (char c : line.substr(0, eq))
      if (!((c >= 'A' && c <= 'Z') || c == '_')) fuzz::fail("a variable name that is not NAME", line, input);
    for (char c : line.substr(eq + 1))
      if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '+' ||
            c == '_' || c == '-'))
        fuzz::fail("a variable value that is not plain", line, input);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input = fuzz::as_text(data, size);
  auto facts = detect::read_host_file(fuzz::TempDir::write("host.json", input));
  if (!facts) {
    if (facts.error().message.empty()) fuzz::fail("an error without a message", input);
    return 0;
  }
  const nlohmann::json once = detect::to_json(*facts);
  auto again = detect::host_facts_from_json(once);
  if (!again) fuzz::fail("facts written as JSON do not read back", again.error().message, input);
  if (detect::to_json(*again) != once) fuzz::fail("facts written as JSON read back as other facts", once.dump(), input);
  for (const ProviderDescriptor* d : provider_descriptors())
    for (const auto& format : d->host_formats) check_variables(format.write(*facts), input);
  const std::string variants = detect::variant_properties(*facts);
  if (variants.size() > (1u << 20)) fuzz::fail("more than 1 MiB of variant properties", input);
  for (char c : variants)
    if ((static_cast<unsigned char>(c) < 0x20 && c != '\n') || c == 0x7f)
      fuzz::fail("a control character in the variant properties", variants.substr(0, 200), input);
  return 0;
}
