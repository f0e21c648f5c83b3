// Fuzzes the Homebrew provider's reading of a formula index (formula.json, or formula.jws.json's
// payload) into formulae, and each formula made a record for a mac and for Linux (bottle choice,
// variations, uses_from_macos, requirements); and Homebrew's version order on the input's two
// halves, which must be antisymmetric wherever Homebrew's own loop compares every token.
#include <cstdint>

#include "core/json/byte_source.h"
#include "providers/homebrew/homebrew_provider.h"
#include "providers/homebrew/homebrew_version.h"
#include "tests/fuzz/fuzz_support.h"

using namespace extdeps;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view bytes = fuzz::as_text(data, size);
  homebrew::Platform mac;
  mac.macos = true;
  mac.macos_version = "14.5";
  mac.arch = "arm64";
  mac.prefix = "/opt/homebrew";
  homebrew::Platform linux_host;
  linux_host.macos = false;
  linux_host.arch = "x86_64";
  linux_host.prefix = "/home/linuxbrew/.linuxbrew";
  auto src = json::over_memory(bytes, "formula.json");
  auto n = homebrew::read_formulae(*src, [&](homebrew::Formula&& f) {
    if (f.name.empty() || f.stable.empty()) fuzz::fail("a formula without a name or a version", bytes);
    for (const auto* host : {&mac, &linux_host}) {
      auto r = homebrew::to_record(f, *host, "formula.json");
      if (r && (r->name != f.name || r->version != f.pkg_version())) fuzz::fail("a record unlike its formula", bytes);
      if (r && r->build.empty()) fuzz::fail("a record without its bottle or source", bytes);
    }
  });
  (void)n;
  const std::string_view a = bytes.substr(0, bytes.size() / 2), b = bytes.substr(bytes.size() / 2);
  auto sign = [](int v) { return v < 0 ? -1 : v > 0 ? 1 : 0; };
  // Homebrew's own Version#<=> is antisymmetric only where its loop compares every token: it
  // runs as long as the longer side, so zeros skipped on one side can leave the other's tokens
  // unread ("1.0.0" <=> "1.0a" is 0, "1.0a" <=> "1.0.0" is -1), and extdeps keeps that order
  // (homebrew.h). Where neither comparison stopped early, the order must be antisymmetric.
  bool ab_early = false, ba_early = false;
  const int ab = version::homebrew_compare(a, b, &ab_early), ba = version::homebrew_compare(b, a, &ba_early);
  if (!ab_early && !ba_early && sign(ab) != -sign(ba)) fuzz::fail("homebrew_compare is not antisymmetric", bytes);
  if (version::homebrew_compare(a, a) != 0) fuzz::fail("a version unequal to itself", bytes);
  (void)version::homebrew_normalize(a);
  return 0;
}
