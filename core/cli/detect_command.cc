#include "core/cli/detect_command.h"
#include "core/cli/fail.h"
#include "core/config/command_options.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iomanip>
#include <ostream>
#include <sstream>

#include "core/detect/host.h"
#include "core/detect/host_cache.h"
#include "core/detect/host_export.h"
#include "core/detect/host_json.h"
#include "core/json/document.h"
#include "core/provider/descriptor.h"
#include "core/util/printable.h"
#include "core/util/text.h"

namespace extdeps::cli {

namespace {

using detect::CudaState;
using detect::HostFacts;

std::string memory_text(std::uint64_t bytes) {
  std::ostringstream s;
  s << std::fixed << std::setprecision(1) << static_cast<double>(bytes) / (1024.0 * 1024 * 1024) << " GiB";
  return s.str();
}

void line(std::ostream& out, std::string_view label, std::string_view value) {
  // Facts may come from a --host file, anyone's text: control characters are shown, not sent.
  out << "  " << std::left << std::setw(12) << (label.empty() ? "" : std::string(label) + ":") << printable_text(value)
      << '\n';
}

void print_cuda(const detect::CudaFacts& c, std::ostream& out) {
  std::string state(detect::cuda_state_name(c.state));
  if (!c.cuda_version.empty()) state += " (cuda " + c.cuda_version + ")";
  if (!c.source.empty()) state += " (source: " + c.source + ")";
  line(out, "cuda", state);
  if (!c.detail.empty()) line(out, "", c.detail);
  if (!c.library.empty()) line(out, "library", c.library);
  if (c.driver_version != 0 || !c.kernel_driver.empty()) {
    std::string d;
    if (c.driver_version != 0) d = std::to_string(c.driver_version);
    if (!c.kernel_driver.empty()) d += (d.empty() ? "" : ", ") + ("kernel module " + c.kernel_driver);
    if (!c.user_driver.empty() && c.user_driver != c.kernel_driver)
      d += (d.empty() ? "" : ", ") + ("user-mode driver " + c.user_driver);
    line(out, "driver", d);
  }
  if (!c.platform.empty()) line(out, "platform", c.platform == "wsl" ? "WSL" : "Jetson (tegra)");
  if (c.state == CudaState::driver_error && !c.error_name.empty())
    line(out, "error", c.error_name + " (" + std::to_string(c.error_code) + ")");
  for (const auto& d : c.devices) {
    std::string text = std::to_string(d.index) + ": " + d.name + ", sm " + std::to_string(d.cc_major) + "." +
                       std::to_string(d.cc_minor);
    if (d.total_memory) text += ", " + memory_text(d.total_memory);
    if (!d.uuid.empty()) text += ", " + d.uuid;
    if (d.mig == "enabled") text += ", MIG on";
    line(out, "device", text);
  }
  if (!c.devices.empty()) {
    auto [major, minor] = c.min_compute_capability();
    line(out, "cuda_arch", std::to_string(major) + "." + std::to_string(minor) + " (the oldest device)");
  }
}

void print_text(const Context& ctx, const HostFacts& f, bool cached_allowed, const std::string& host_file,
                std::ostream& out) {
  out << (host_file.empty() ? std::string("extdeps: this machine\n")
                            : "extdeps: the machine of " + printable_text(host_file) + "\n");
  std::string os = f.os.pretty_name.empty() ? "unknown" : f.os.pretty_name;
  if (!f.os.id.empty()) os += " [" + f.os.id + (f.os.version_id.empty() ? "" : " " + f.os.version_id) + "]";
  line(out, "os", os);
  const std::string named = detect::system_arch(f);  // as the system's manager names it
  std::string arch = f.machine + (named == f.machine ? "" : " (" + named + ")");
  line(out, "arch", arch);
  if (!f.x86_64_level.empty()) line(out, "level", f.x86_64_level);
  else if (!f.cpu_features.empty()) line(out, "features", join(f.cpu_features, " "));
  line(out, "kernel", f.kernel.empty() ? "none" : f.kernel);
  line(out, "libc", f.libc.empty() ? "none" : f.libc + (f.libc_version.empty() ? "" : " " + f.libc_version));
  if (f.compilers.empty()) line(out, "compilers", "none on PATH");
  for (size_t i = 0; i < f.compilers.size(); ++i) {
    const auto& c = f.compilers[i];
    line(out, i == 0 ? "compilers" : "",
         c.name + " " + (c.version.empty() ? "(version unknown)" : c.version) + "  " + c.path);
  }
  print_cuda(f.cuda, out);
  if (!f.overridden.empty()) line(out, "overridden", join(f.overridden, ", "));
  if (!host_file.empty()) return;
  if (!cached_allowed) line(out, "cached", "no (cache not used)");
  else line(out, "cached", f.from_cache ? "yes, " + detect::host_cache_file(ctx) : "no, detected now");
}

// "cannot write PATH: WHY", with the file as its place.
Error cannot_write(const std::string& path, const char* why) {
  Error e = environment_error("cannot write " + path + ": " + why);
  e.place = path;
  e.what = std::string("cannot write: ") + why;
  return e;
}

// The facts as `detect --json` prints them, for `--host FILE` on another machine; written whole
// (temp file and rename) so a reader never sees half.
Result<void> save_facts(const HostFacts& facts, const std::string& path) {
  auto j = detect::to_json(facts);
  j["from_cache"] = false;
  const std::string tmp = path + ".tmp." + std::to_string(getpid());
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    f << j.dump(2) << '\n';
    f.close();
    if (!f) {
      std::remove(tmp.c_str());
      return cannot_write(path, std::strerror(errno));
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    int e = errno;
    std::remove(tmp.c_str());
    return cannot_write(path, std::strerror(e));
  }
  return {};
}

}  // namespace

int cmd_detect(const Context& ctx, const DetectCommandOptions& o, std::ostream& out, std::ostream& err) {
  std::string format = o.format.empty() ? (o.json ? "json" : "text") : o.format;
  // Core's own formats first: a provider's format of the same name is never reached.
  const bool core_format = format == "text" || format == "json" || format == "variants";
  const HostFormat* provider_format = core_format ? nullptr : host_format_named(format);
  if (!core_format && !provider_format) {
    err << "error: unknown format '" << format << "' (expected " << config::detect_formats_text(false) << ")\n";
    return 2;
  }
  if (o.json && format != "json") {
    err << "error: --json and --format " << format << " cannot be used together\n";
    return 2;
  }
  detect::DetectOptions options;
  options.refresh = o.refresh;
  options.use_cache = !o.no_cache;
  options.host_file = o.host_file;
  auto facts = detect::detect_host(ctx, options);
  if (!facts.ok()) return fail(err, facts.error(), format == "json" ? &out : nullptr);
  if (!o.save.empty()) {
    if (auto saved = save_facts(*facts, o.save); !saved.ok())
      return fail(err, saved.error(), format == "json" ? &out : nullptr);
  }
  if (format == "json") {
    auto j = detect::to_json(*facts);
    out << extdeps::json::dump(j, 2) << '\n';
    return 0;
  }
  if (provider_format) {
    out << provider_format->write(*facts);
    return 0;
  }
  if (format == "variants") {
    out << detect::variant_properties(*facts);
    return 0;
  }
  print_text(ctx, *facts, options.use_cache && ctx.cache_enabled(), o.host_file, out);
  return 0;
}

}  // namespace extdeps::cli
