#include "core/detect/overrides.h"

#include <cctype>
#include <string_view>
#include <utility>
#include <vector>

#include "core/config/values.h"
#include "core/provider/descriptor.h"

namespace extdeps::detect {

namespace {

// EXTDEPS_OVERRIDE_<...> for `fact`, else the first variable a provider's manager states the
// fact with (FactOverride: conda's CONDA_OVERRIDE_CUDA), in provider order.
std::optional<Override> lookup(const Context& ctx, std::string_view name, std::string_view fact) {
  if (auto v = ctx.env(name)) return Override{std::string(name), *v};
  for (const ProviderDescriptor* d : provider_descriptors())
    for (const auto& f : d->fact_overrides)
      if (f.fact == fact)
        if (auto v = ctx.env(f.variable)) return Override{std::string(f.variable), *v};
  return std::nullopt;
}

bool all_digits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  return true;
}

// "12", "12.4", "12.4.1": dot-separated numbers.
bool is_numeric_version(std::string_view s) {
  size_t start = 0;
  for (;;) {
    size_t dot = s.find('.', start);
    auto part = s.substr(start, dot == std::string_view::npos ? dot : dot - start);
    if (!all_digits(part) || part.size() > 6) return false;
    if (dot == std::string_view::npos) return true;
    start = dot + 1;
  }
}

// "8.6", "sm_86", "compute_90", "sm_90a", "86" -> {8, 6}.
std::optional<std::pair<int, int>> parse_compute_capability(std::string_view s) {
  for (std::string_view prefix : {"sm_", "compute_"})
    if (s.substr(0, prefix.size()) == prefix) {
      s.remove_prefix(prefix.size());
      if (!s.empty() && (s.back() == 'a' || s.back() == 'f')) s.remove_suffix(1);
      if (!all_digits(s) || s.size() < 2 || s.size() > 3) return std::nullopt;
      return std::pair{std::stoi(std::string(s.substr(0, s.size() - 1))), s.back() - '0'};
    }
  auto dot = s.find('.');
  if (dot == std::string_view::npos) {
    if (!all_digits(s) || s.size() < 2 || s.size() > 3) return std::nullopt;
    return std::pair{std::stoi(std::string(s.substr(0, s.size() - 1))), s.back() - '0'};
  }
  auto major = s.substr(0, dot), minor = s.substr(dot + 1);
  if (!all_digits(major) || !all_digits(minor) || major.size() > 2 || minor.size() > 2) return std::nullopt;
  return std::pair{std::stoi(std::string(major)), std::stoi(std::string(minor))};
}

// "invalid EXTDEPS_OVERRIDE_CUDA='twelve': expected a cuda version like 12.4, ...", blamed on
// the variable that set it.
Error bad_override(const Override& o, std::string_view expected) {
  const std::string what = "invalid " + o.variable + "='" + o.value + "'";
  Error e = bad_input(what + ": expected " + std::string(expected));
  e.what = what;
  e.expected = std::string(expected);
  e.from = o.variable;
  return e;
}

Overrides collect(const Context& ctx) {
  Overrides o;
  o.cuda = lookup(ctx, "EXTDEPS_OVERRIDE_CUDA", "cuda");
  o.cuda_arch = lookup(ctx, "EXTDEPS_OVERRIDE_CUDA_ARCH", "cuda-arch");
  if (o.cuda_arch && o.cuda_arch->value.empty()) o.cuda_arch.reset();
  o.glibc = lookup(ctx, "EXTDEPS_OVERRIDE_GLIBC", "glibc");
  o.linux_kernel = lookup(ctx, "EXTDEPS_OVERRIDE_LINUX", "linux");
  o.arch = lookup(ctx, "EXTDEPS_OVERRIDE_ARCH", "arch");
  if (o.arch && o.arch->value.empty()) o.arch.reset();
  // The os is core's `system` option (--system, a file's system key, EXTDEPS_OVERRIDE_OS).
  if (auto system = config::value(ctx, "system"); system.ok() && *system && !(*system)->values.empty())
    o.os = Override{(*system)->from, (*system)->values.front()};
  return o;
}

std::optional<Error> check(const Overrides& o) {
  if (o.cuda && !o.cuda->value.empty() && !is_numeric_version(o.cuda->value))
    return bad_override(*o.cuda, "a cuda version like 12.4, or empty for no cuda");
  if (o.cuda_arch && !parse_compute_capability(o.cuda_arch->value))
    return bad_override(*o.cuda_arch, "a compute capability like 8.6 or sm_86");
  if (o.glibc && !o.glibc->value.empty() && !is_numeric_version(o.glibc->value))
    return bad_override(*o.glibc, "a glibc version like 2.36, or empty for no glibc");
  if (o.os && (o.os->value.front() == ':' || o.os->value.find(' ') != std::string::npos))
    return bad_override(*o.os, "an os id and version like rocky:9");
  return std::nullopt;
}

}  // namespace

Result<Overrides> read_overrides(const Context& ctx) {
  Overrides o = collect(ctx);
  if (auto e = check(o)) return *e;
  return o;
}

void apply_overrides(const Overrides& o, HostFacts& f) {
  auto mark = [&](const char* name) { f.overridden.emplace_back(name); };
  if (o.os) {
    auto colon = o.os->value.find(':');
    std::string id = o.os->value.substr(0, colon);
    std::string version = colon == std::string::npos ? "" : o.os->value.substr(colon + 1);
    if (id != f.os.id) {
      f.os.id_like = known_id_like(id);
      f.os.version_codename.clear();
      if (id == "macos") {
        // A mac has no glibc and no Linux kernel; its CPU features are another machine's.
        f.libc.clear();
        f.libc_version.clear();
        f.kernel.clear();
      }
    } else if (version != f.os.version_id) {
      f.os.version_codename.clear();
    }
    f.os.id = id;
    f.os.version_id = version;
    const std::string shown = id == "macos" ? "macOS" : id;
    f.os.pretty_name = version.empty() ? shown : shown + " " + version;
    mark("os");
  }
  if (o.arch) {
    std::string machine = machine_named(o.arch->value);
    if (machine != f.machine) {
      // Another architecture's CPU is not this one: its level and features are unknown.
      f.x86_64_level.clear();
      f.cpu_features.clear();
    }
    f.machine = machine;
    mark("arch");
  }
  if (o.linux_kernel) {
    f.kernel = o.linux_kernel->value;
    mark("linux");
  }
  if (o.glibc) {
    f.libc = o.glibc->value.empty() ? "" : "glibc";
    f.libc_version = o.glibc->value;
    mark("glibc");
  }
  if (o.cuda) {
    CudaFacts c;
    c.source = "override";
    c.kernel_driver = f.cuda.kernel_driver;
    if (o.cuda->value.empty()) {
      c.state = CudaState::no_library;
      c.detail = "cuda is absent: " + o.cuda->variable + " is set and empty";
    } else {
      c.state = CudaState::ok;
      std::string v = o.cuda->value;
      auto dot = v.find('.');
      int major = std::stoi(v.substr(0, dot));
      int minor = 0;
      if (dot != std::string::npos) {
        auto rest = v.substr(dot + 1);
        minor = std::stoi(rest.substr(0, rest.find('.')));
      }
      c.cuda_version = std::to_string(major) + "." + std::to_string(minor);
      c.driver_version = major * 1000 + minor * 10;
      c.detail = "cuda " + c.cuda_version + " from " + o.cuda->variable;
    }
    f.cuda = std::move(c);
    mark("cuda");
  }
  if (o.cuda_arch) {
    auto cc = parse_compute_capability(o.cuda_arch->value);
    CudaDevice d;
    d.name = "overridden by " + o.cuda_arch->variable;
    d.cc_major = cc->first;
    d.cc_minor = cc->second;
    f.cuda.devices = {d};
    mark("cuda-arch");
  }
}

}  // namespace extdeps::detect
