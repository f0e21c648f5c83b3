#include "core/detect/host_json.h"

#include <algorithm>
#include <array>
#include <string_view>

#include "core/util/printable.h"

namespace extdeps::detect {

namespace {

bool plausible_cuda_version(const std::string& v) {
  auto dot = v.find('.');
  if (dot == std::string::npos) return false;
  auto digits = [](std::string_view s) {
    return !s.empty() && s.size() <= 2 && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
  };
  return digits(std::string_view(v).substr(0, dot)) && digits(std::string_view(v).substr(dot + 1));
}

constexpr std::array<std::pair<CudaState, std::string_view>, 7> kStates = {{
    {CudaState::ok, "ok"},
    {CudaState::no_library, "no-library"},
    {CudaState::stub_library, "stub-library"},
    {CudaState::no_device, "no-device"},
    {CudaState::driver_error, "driver-error"},
    {CudaState::timeout, "timeout"},
    {CudaState::crashed, "crashed"},
}};

nlohmann::json os_json(const OsRelease& os) {
  return {{"id", os.id},
          {"id_like", os.id_like},
          {"version_id", os.version_id},
          {"version_codename", os.version_codename},
          {"pretty_name", os.pretty_name}};
}

nlohmann::json cuda_json(const CudaFacts& c) {
  nlohmann::json devices = nlohmann::json::array();
  for (const auto& d : c.devices)
    devices.push_back({{"index", d.index},
                       {"name", d.name},
                       {"compute_capability", std::to_string(d.cc_major) + "." + std::to_string(d.cc_minor)},
                       {"cc_major", d.cc_major},
                       {"cc_minor", d.cc_minor},
                       {"total_memory", d.total_memory},
                       {"uuid", d.uuid},
                       {"mig", d.mig}});
  auto [cc_major, cc_minor] = c.min_compute_capability();
  return {{"state", std::string(cuda_state_name(c.state))},
          {"library", c.library},
          {"source", c.source},
          {"driver_version", c.driver_version},
          {"cuda_version", c.cuda_version},
          {"kernel_driver", c.kernel_driver},
          {"user_driver", c.user_driver},
          {"nvml_library", c.nvml_library},
          {"platform", c.platform},
          {"fingerprint", c.fingerprint},
          {"cuda_arch", c.devices.empty() ? std::string() : std::to_string(cc_major) + "." + std::to_string(cc_minor)},
          {"error_code", c.error_code},
          {"error_name", c.error_name},
          {"detail", c.detail},
          {"devices", devices}};
}

}  // namespace

std::string_view cuda_state_name(CudaState s) {
  for (const auto& [state, name] : kStates)
    if (state == s) return name;
  return "unknown";
}

std::optional<CudaState> parse_cuda_state(std::string_view name) {
  for (const auto& [state, n] : kStates)
    if (n == name) return state;
  return std::nullopt;
}

nlohmann::json to_json(const HostFacts& f) {
  nlohmann::json compilers = nlohmann::json::array();
  for (const auto& c : f.compilers) compilers.push_back({{"name", c.name}, {"path", c.path}, {"version", c.version}});
  return {{"os", os_json(f.os)},
          {"machine", f.machine},
          {"system_arch", system_arch(f)},
          {"x86_64_level", f.x86_64_level},
          {"cpu_features", f.cpu_features},
          {"kernel", f.kernel},
          {"libc", f.libc},
          {"libc_version", f.libc_version},
          {"compilers", compilers},
          {"cuda", cuda_json(f.cuda)},
          {"overridden", f.overridden},
          {"from_cache", f.from_cache}};
}

Result<HostFacts> host_facts_from_json(const nlohmann::json& j) {
  try {
    HostFacts f;
    const auto& os = j.at("os");
    f.os.id = os.at("id").get<std::string>();
    f.os.id_like = os.at("id_like").get<std::vector<std::string>>();
    f.os.version_id = os.at("version_id").get<std::string>();
    f.os.version_codename = os.at("version_codename").get<std::string>();
    f.os.pretty_name = os.at("pretty_name").get<std::string>();
    f.machine = j.at("machine").get<std::string>();
    f.x86_64_level = j.at("x86_64_level").get<std::string>();
    f.cpu_features = j.at("cpu_features").get<std::vector<std::string>>();
    f.kernel = j.at("kernel").get<std::string>();
    f.libc = j.at("libc").get<std::string>();
    f.libc_version = j.at("libc_version").get<std::string>();
    for (const auto& c : j.at("compilers"))
      f.compilers.push_back(
          {c.at("name").get<std::string>(), c.at("path").get<std::string>(), c.at("version").get<std::string>()});
    const auto& cj = j.at("cuda");
    auto state = parse_cuda_state(cj.at("state").get<std::string>());
    if (!state)
      return error_at(ExitCode::bad_input, "", "unknown cuda state '" + cj.at("state").get<std::string>() + "'");
    f.cuda.state = *state;
    f.cuda.library = cj.at("library").get<std::string>();
    f.cuda.source = cj.at("source").get<std::string>();
    f.cuda.driver_version = cj.at("driver_version").get<int>();
    f.cuda.cuda_version = cj.at("cuda_version").get<std::string>();
    // What a driver reports: MAJOR.MINOR, each of one or two digits (or nothing). Anything else
    // reached the variant writer's loops (12.2147483647 never ended).
    if (!f.cuda.cuda_version.empty() && !plausible_cuda_version(f.cuda.cuda_version))
      return error_at(ExitCode::bad_input, "", "cuda_version '" + printable_text(f.cuda.cuda_version) + "'",
                      "MAJOR.MINOR of one or two digits each, as a driver reports it (12.4)");
    f.cuda.kernel_driver = cj.at("kernel_driver").get<std::string>();
    // Added after the first saved files: absent means unknown.
    f.cuda.user_driver = cj.value("user_driver", "");
    f.cuda.nvml_library = cj.value("nvml_library", "");
    f.cuda.platform = cj.value("platform", "");
    f.cuda.fingerprint = cj.value("fingerprint", "");
    f.cuda.error_code = cj.at("error_code").get<int>();
    f.cuda.error_name = cj.at("error_name").get<std::string>();
    f.cuda.detail = cj.at("detail").get<std::string>();
    for (const auto& d : cj.at("devices")) {
      if (f.cuda.devices.size() >= 4096)
        return error_at(ExitCode::bad_input, "", "more than 4096 cuda devices", "the GPUs of one machine");
      CudaDevice dev;
      dev.index = d.at("index").get<int>();
      dev.name = d.at("name").get<std::string>();
      dev.cc_major = d.at("cc_major").get<int>();
      dev.cc_minor = d.at("cc_minor").get<int>();
      if (dev.cc_major < 0 || dev.cc_major > 99 || dev.cc_minor < 0 || dev.cc_minor > 9)
        return error_at(ExitCode::bad_input, "",
                        "compute capability " + std::to_string(dev.cc_major) + "." + std::to_string(dev.cc_minor),
                        "MAJOR.MINOR, 0-99 and 0-9");
      dev.total_memory = d.at("total_memory").get<std::uint64_t>();
      dev.uuid = d.at("uuid").get<std::string>();
      dev.mig = d.value("mig", "");
      f.cuda.devices.push_back(std::move(dev));
    }
    if (j.contains("overridden")) f.overridden = j.at("overridden").get<std::vector<std::string>>();
    f.from_cache = j.value("from_cache", false);
    return f;
  } catch (const nlohmann::json::exception& e) {
    return error_at(ExitCode::bad_input, "", std::string("malformed host facts: ") + e.what());
  }
}

}  // namespace extdeps::detect
