// The parsed form keeps the parts that nixpkgs' patterns use (lib/systems/inspect.nix): kernel
// name and executable format, cpu name, family, bits and byte order, abi.
#include "providers/nix/platform.h"

#include <map>

#include "core/detect/os_release.h"

namespace extdeps::nix {

namespace {

struct Cpu {
  const char* family;
  int bits;
  const char* byte_order;
};

const std::map<std::string, Cpu>& cpus() {
  static const std::map<std::string, Cpu> kCpus = {
      {"x86_64", {"x86", 64, "littleEndian"}},
      {"i686", {"x86", 32, "littleEndian"}},
      {"aarch64", {"arm", 64, "littleEndian"}},
      {"armv7l", {"arm", 32, "littleEndian"}},
      {"armv6l", {"arm", 32, "littleEndian"}},
      {"powerpc64le", {"power", 64, "littleEndian"}},
      {"powerpc64", {"power", 64, "bigEndian"}},
      {"riscv64", {"riscv", 64, "littleEndian"}},
      {"s390x", {"s390", 64, "bigEndian"}},
      {"mips64el", {"mips", 64, "littleEndian"}},
      {"loongarch64", {"loongarch", 64, "littleEndian"}},
  };
  return kCpus;
}

// Does `pattern` hold in `value` (lib.matchAttrs: every attribute of the pattern, recursively)?
std::optional<bool> match_attrs(const nlohmann::json& pattern, const nlohmann::json& value) {
  if (!pattern.is_object()) {
    if (value.is_null()) return std::nullopt;
    return pattern == value;
  }
  if (!value.is_object()) return value.is_null() ? std::nullopt : std::optional<bool>(false);
  bool unknown = false;
  for (auto it = pattern.begin(); it != pattern.end(); ++it) {
    auto found = value.find(it.key());
    auto r = match_attrs(it.value(), found == value.end() ? nlohmann::json() : *found);
    if (r && !*r) return false;
    if (!r) unknown = true;
  }
  if (unknown) return std::nullopt;
  return true;
}

}  // namespace

std::optional<std::string> machine_system(const Context& ctx) {
  if (auto s = ctx.env("EXTDEPS_NIX_SYSTEM"); s && !s->empty()) return *s;
  // By uname's name of the machine (detect::machine, so EXTDEPS_OVERRIDE_ARCH applies).
  static const std::map<std::string, std::string> kByMachine = {
      {"x86_64", "x86_64-linux"},   {"aarch64", "aarch64-linux"},         {"i686", "i686-linux"},
      {"i586", "i686-linux"},       {"armv7l", "armv7l-linux"},           {"armv6l", "armv6l-linux"},
      {"armel", "armv6l-linux"},    {"ppc64le", "powerpc64le-linux"},     {"riscv64", "riscv64-linux"},
      {"s390x", "s390x-linux"},     {"loongarch64", "loongarch64-linux"}, {"loong64", "loongarch64-linux"},
      {"mips64", "mips64el-linux"},
  };
  auto it = kByMachine.find(detect::machine(ctx));
  if (it == kByMachine.end()) return std::nullopt;
  return it->second;
}

Platform::Platform(std::string system) : system_(std::move(system)) {
  auto dash = system_.find('-');
  std::string cpu = system_.substr(0, dash);
  std::string kernel = dash == std::string::npos ? "" : system_.substr(dash + 1);
  parsed_ = nlohmann::json::object();
  parsed_["system"] = system_;
  nlohmann::json c{{"name", cpu}};
  if (auto it = cpus().find(cpu); it != cpus().end()) {
    c["family"] = it->second.family;
    c["bits"] = it->second.bits;
    c["significantByte"] = {{"name", it->second.byte_order}};
  }
  parsed_["cpu"] = c;
  nlohmann::json k{{"name", kernel}};
  if (kernel == "linux") {
    k["execFormat"] = {{"name", "elf"}};
    k["families"] = nlohmann::json::object();
    parsed_["abi"] = {{"name", "gnu"}};
    parsed_["vendor"] = {{"name", "unknown"}};
  } else if (kernel == "darwin") {
    k["execFormat"] = {{"name", "macho"}};
    k["families"] = {{"darwin", {{"name", "darwin"}}}};
    parsed_["vendor"] = {{"name", "apple"}};
  }
  parsed_["kernel"] = k;
}

std::optional<bool> Platform::matches(const nlohmann::json& element) const {
  if (element.is_string()) return element.get<std::string>() == system_;
  if (element.is_object()) return match_attrs(element, parsed_);
  return std::nullopt;
}

}  // namespace extdeps::nix
