// The NVIDIA driver probe: a child process that loads the driver with dlopen, and the parent that
// runs it with a timeout and turns what it printed (or how it died) into CudaFacts.
#include "core/detect/cuda_probe.h"
#include "core/json/document.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <link.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <sstream>
#include <thread>
#include <vector>

#include "core/detect/cuda_api.h"
#include "core/util/file_stamp.h"
#include "core/util/regular_file.h"
#include "core/util/subprocess.h"

namespace extdeps::detect {

namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

// ---- child side ----

struct Library {
  void* handle = nullptr;
  std::string path;   // the file the loader picked, absolute when known
  std::string error;  // dlerror() when nothing loaded
};

std::string loaded_path(void* handle) {
  struct link_map* map = nullptr;
  if (dlinfo(handle, RTLD_DI_LINKMAP, &map) != 0 || !map || !map->l_name || !*map->l_name) return {};
  std::string path = map->l_name;
  if (path[0] != '/') {
    char buf[PATH_MAX];
    if (realpath(path.c_str(), buf)) path = buf;
  }
  return path;
}

std::string dl_error() {
  const char* e = dlerror();
  return e ? e : "unknown dlopen error";
}

// `override_var` names a file to load instead of the search; else the soname by the loader's
// search, then the places WSL and Jetson keep the driver where ld.so.conf may not say so.
Library load_library(const char* override_var, const char* soname, std::initializer_list<const char*> fallbacks) {
  Library lib;
  const char* forced = std::getenv(override_var);
  if (forced && *forced) {
    lib.handle = dlopen(forced, RTLD_NOW | RTLD_LOCAL);
    if (!lib.handle) lib.error = dl_error();
  } else {
    lib.handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (!lib.handle) {
      lib.error = dl_error();
      for (const char* path : fallbacks) {
        if (lib.handle) break;
        if (access(path, F_OK) == 0) lib.handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
      }
    }
  }
  if (lib.handle) {
    lib.path = loaded_path(lib.handle);
    lib.error.clear();
  }
  return lib;
}

template <class F>
F symbol(void* handle, const char* name) {
  return reinterpret_cast<F>(dlsym(handle, name));
}

std::string format_uuid(const unsigned char* b) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0], b[1],
                b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
  return buf;
}

json probe_libcuda() {
  using namespace cuda_api;
  json j = {{"state", "no-library"}, {"devices", json::array()}};
  Library lib = load_library("EXTDEPS_CUDA_LIBRARY", "libcuda.so.1",
                             {"/usr/lib/wsl/lib/libcuda.so.1", "/usr/lib/aarch64-linux-gnu/nvidia/libcuda.so.1",
                              "/usr/lib/aarch64-linux-gnu/tegra/libcuda.so.1"});
  if (!lib.handle) {
    j["detail"] = "cannot load libcuda.so.1: " + lib.error;
    return j;
  }
  void* h = lib.handle;
  j["library"] = lib.path;
  auto init = symbol<cuInit_t>(h, "cuInit");
  if (!init) {
    j["state"] = "driver-error";
    j["detail"] = lib.path + " does not export cuInit";
    return j;
  }
  auto get_error_name = symbol<cuGetErrorName_t>(h, "cuGetErrorName");
  auto error_name = [&](CUresult r) -> std::string {
    const char* s = nullptr;
    if (get_error_name && get_error_name(r, &s) == CUDA_SUCCESS && s) return s;
    if (r == CUDA_ERROR_STUB_LIBRARY) return "CUDA_ERROR_STUB_LIBRARY";  // the stub names nothing
    if (r == CUDA_ERROR_NO_DEVICE) return "CUDA_ERROR_NO_DEVICE";
    return {};
  };
  auto fail = [&](const char* state, CUresult r, const std::string& what) {
    std::string name = error_name(r);
    j["state"] = state;
    j["error_code"] = r;
    j["error_name"] = name;
    j["detail"] = what + " returned " + std::to_string(r) + (name.empty() ? "" : " (" + name + ")");
  };

  CUresult r = init(0);
  if (r == CUDA_ERROR_STUB_LIBRARY) {
    fail("stub-library", r, "cuInit");
    j["detail"] = lib.path + " is the CUDA toolkit's stub library, not a driver (cuInit returned 34)";
    return j;
  }
  if (auto get_version = symbol<cuDriverGetVersion_t>(h, "cuDriverGetVersion")) {
    int version = 0;
    if (get_version(&version) == CUDA_SUCCESS) j["driver_version"] = version;
  }
  if (r == CUDA_ERROR_NO_DEVICE) {
    fail("no-device", r, "cuInit");
    j["detail"] = "the driver found no CUDA device (cuInit returned 100)";
    return j;
  }
  if (r != CUDA_SUCCESS) {
    fail("driver-error", r, "cuInit");
    return j;
  }

  auto get_count = symbol<cuDeviceGetCount_t>(h, "cuDeviceGetCount");
  auto get_device = symbol<cuDeviceGet_t>(h, "cuDeviceGet");
  auto get_attribute = symbol<cuDeviceGetAttribute_t>(h, "cuDeviceGetAttribute");
  auto get_name = symbol<cuDeviceGetName_t>(h, "cuDeviceGetName");
  auto get_memory = symbol<cuDeviceTotalMem_v2_t>(h, "cuDeviceTotalMem_v2");
  auto get_uuid = symbol<cuDeviceGetUuid_t>(h, "cuDeviceGetUuid");
  int count = 0;
  if (!get_count || !get_device) {
    j["state"] = "driver-error";
    j["detail"] = lib.path + " does not export cuDeviceGetCount and cuDeviceGet";
    return j;
  }
  if (r = get_count(&count); r != CUDA_SUCCESS) {
    fail("driver-error", r, "cuDeviceGetCount");
    return j;
  }
  for (int i = 0; i < count; ++i) {
    CUdevice dev = 0;
    if (get_device(&dev, i) != CUDA_SUCCESS) continue;
    json d = {{"index", i}};
    char name[256] = {};
    if (get_name && get_name(name, sizeof name - 1, dev) == CUDA_SUCCESS) d["name"] = name;
    int major = 0, minor = 0;
    if (get_attribute && get_attribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev) == CUDA_SUCCESS &&
        get_attribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev) == CUDA_SUCCESS) {
      d["cc_major"] = major;
      d["cc_minor"] = minor;
    }
    std::size_t bytes = 0;
    if (get_memory && get_memory(&bytes, dev) == CUDA_SUCCESS) d["total_memory"] = bytes;
    CUuuid uuid{};
    if (get_uuid && get_uuid(&uuid, dev) == CUDA_SUCCESS)
      d["uuid"] = format_uuid(reinterpret_cast<const unsigned char*>(uuid.bytes));
    j["devices"].push_back(std::move(d));
  }
  if (j["devices"].empty()) {
    j["state"] = "no-device";
    j["detail"] = "the driver lists no CUDA device";
    return j;
  }
  j["state"] = "ok";
  return j;
}

// NVML first: it answers without creating a CUDA context, which cuInit does (hundreds of
// milliseconds on a large machine). `complete` says whether the Driver API still has to be asked.
json probe_nvml(bool& complete) {
  using namespace cuda_api;
  complete = false;
  json j = {{"loaded", false}, {"devices", json::array()}};
  Library lib = load_library("EXTDEPS_NVML_LIBRARY", "libnvidia-ml.so.1", {"/usr/lib/wsl/lib/libnvidia-ml.so.1"});
  if (!lib.handle) {
    j["detail"] = "cannot load libnvidia-ml.so.1: " + lib.error;
    return j;
  }
  void* h = lib.handle;
  j["library"] = lib.path;
  auto init = symbol<nvmlInit_v2_t>(h, "nvmlInit_v2");
  if (!init) {
    j["detail"] = lib.path + " does not export nvmlInit_v2";
    return j;
  }
  if (nvmlReturn_t r = init(); r != NVML_SUCCESS) {
    const char* text = nullptr;
    if (auto f = symbol<nvmlErrorString_t>(h, "nvmlErrorString")) text = f(r);
    j["error_code"] = r;
    j["detail"] = "nvmlInit_v2 returned " + std::to_string(r) + (text && *text ? std::string(" (") + text + ")" : "");
    return j;
  }
  j["loaded"] = true;
  char text[256] = {};
  if (auto f = symbol<nvmlSystemGetDriverVersion_t>(h, "nvmlSystemGetDriverVersion");
      f && f(text, sizeof text - 1) == NVML_SUCCESS)
    j["user_driver"] = text;
  // _v2 where the driver has it, else the first entry point (drivers before 418 lack _v2).
  int cuda_version = 0;
  auto v2 = symbol<nvmlSystemGetCudaDriverVersion_v2_t>(h, "nvmlSystemGetCudaDriverVersion_v2");
  if (!(v2 && v2(&cuda_version) == NVML_SUCCESS && cuda_version > 0)) {
    cuda_version = 0;
    if (auto v1 = symbol<nvmlSystemGetCudaDriverVersion_t>(h, "nvmlSystemGetCudaDriverVersion");
        !(v1 && v1(&cuda_version) == NVML_SUCCESS))
      cuda_version = 0;
  }
  if (cuda_version > 0) j["driver_version"] = cuda_version;
  auto get_count = symbol<nvmlDeviceGetCount_v2_t>(h, "nvmlDeviceGetCount_v2");
  auto get_handle = symbol<nvmlDeviceGetHandleByIndex_v2_t>(h, "nvmlDeviceGetHandleByIndex_v2");
  auto get_name = symbol<nvmlDeviceGetName_t>(h, "nvmlDeviceGetName");
  auto get_cc = symbol<nvmlDeviceGetCudaComputeCapability_t>(h, "nvmlDeviceGetCudaComputeCapability");
  auto get_memory = symbol<nvmlDeviceGetMemoryInfo_t>(h, "nvmlDeviceGetMemoryInfo");
  auto get_uuid = symbol<nvmlDeviceGetUUID_t>(h, "nvmlDeviceGetUUID");
  auto get_mig = symbol<nvmlDeviceGetMigMode_t>(h, "nvmlDeviceGetMigMode");
  unsigned int count = 0;
  bool listed = get_count && get_handle && get_count(&count) == NVML_SUCCESS;
  bool every_cc = listed;
  if (listed) {
    for (unsigned int i = 0; i < count; ++i) {
      nvmlDevice_t dev = nullptr;
      if (get_handle(i, &dev) != NVML_SUCCESS) {
        every_cc = false;
        continue;
      }
      json d = {{"index", i}};
      char buf[256] = {};
      if (get_name && get_name(dev, buf, sizeof buf - 1) == NVML_SUCCESS) d["name"] = buf;
      int major = 0, minor = 0;
      if (get_cc && get_cc(dev, &major, &minor) == NVML_SUCCESS) {
        d["cc_major"] = major;
        d["cc_minor"] = minor;
      } else {
        every_cc = false;
      }
      nvmlMemory_t memory{};
      if (get_memory && get_memory(dev, &memory) == NVML_SUCCESS) d["total_memory"] = memory.total;
      char uuid[128] = {};
      if (get_uuid && get_uuid(dev, uuid, sizeof uuid - 1) == NVML_SUCCESS) d["uuid"] = uuid;
      unsigned int current = 0, pending = 0;
      // NOT_SUPPORTED on GPUs without MIG: nothing to report.
      if (get_mig && get_mig(dev, &current, &pending) == NVML_SUCCESS)
        d["mig"] = current == NVML_DEVICE_MIG_ENABLE ? "enabled" : "disabled";
      j["devices"].push_back(std::move(d));
    }
  }
  if (auto shutdown = symbol<nvmlShutdown_t>(h, "nvmlShutdown")) shutdown();
  complete = cuda_version > 0 && every_cc;
  return j;
}

// ---- parent side ----

// Runs argv through the Context's runner: its own process group, stdin from nowhere, the
// environment exactly `env`. A run past the limit is killed with its group; a process the kernel
// will not let go of (stuck in the driver) is left behind rather than waited for.
Result<ProcessResult> run_child(const Context& ctx, std::vector<std::string> argv, std::vector<std::string> env,
                                int timeout_ms) {
  ProcessRequest request;
  request.argv = std::move(argv);
  request.env = std::move(env);
  request.timeout_ms = timeout_ms;
  return ctx.processes().run(request);
}

std::string signal_name(int sig) {
  switch (sig) {
    case SIGSEGV: return "SIGSEGV";
    case SIGBUS: return "SIGBUS";
    case SIGABRT: return "SIGABRT";
    case SIGILL: return "SIGILL";
    case SIGFPE: return "SIGFPE";
    case SIGKILL: return "SIGKILL";
    case SIGTERM: return "SIGTERM";
    case SIGTRAP: return "SIGTRAP";
    case SIGSYS: return "SIGSYS";
    case SIGPIPE: return "SIGPIPE";
    default: return "signal " + std::to_string(sig);
  }
}

// The variables the probe child may see. CUDA_VISIBLE_DEVICES is never among them: the probe
// reports the machine, not what one process was told to use.
constexpr const char* kChildEnv[] = {
    "PATH",
    "LD_LIBRARY_PATH",
    "EXTDEPS_CUDA_LIBRARY",
    "EXTDEPS_NVML_LIBRARY",
    "EXTDEPS_FAKE_CUDA_DRIVER",
    "EXTDEPS_FAKE_CUDA_DEVICES",
    "EXTDEPS_FAKE_CUDA_INIT_ERROR",
    "EXTDEPS_FAKE_CUDA_HANG",
    "EXTDEPS_FAKE_CUDA_CRASH",
    "EXTDEPS_FAKE_CUDA_GARBAGE",
    "EXTDEPS_FAKE_CUDA_ECHO_CVD",
    "EXTDEPS_FAKE_NVML_DRIVER",
    "EXTDEPS_FAKE_NVML_CUDA",
    "EXTDEPS_FAKE_NVML_NO_V2",
    "EXTDEPS_FAKE_NVML_DEVICES",
    "EXTDEPS_FAKE_NVML_INIT_ERROR",
    "EXTDEPS_FAKE_NVML_HANG",
    "EXTDEPS_FAKE_NVML_CRASH",
    // A sanitizer build's child reads its sanitizer settings like any other process.
    "ASAN_OPTIONS",
    "UBSAN_OPTIONS",
};

std::vector<std::string> child_env(const Context& ctx) {
  std::vector<std::string> env;
  for (const char* name : kChildEnv)
    if (auto v = ctx.env(name)) env.push_back(std::string(name) + "=" + *v);
  return env;
}

std::optional<CudaState> state_from_name(std::string_view s) {
  if (s == "ok") return CudaState::ok;
  if (s == "no-library") return CudaState::no_library;
  if (s == "stub-library") return CudaState::stub_library;
  if (s == "no-device") return CudaState::no_device;
  if (s == "driver-error") return CudaState::driver_error;
  if (s == "timeout") return CudaState::timeout;
  if (s == "crashed") return CudaState::crashed;
  return std::nullopt;
}

std::vector<CudaDevice> devices_from(const json& list) {
  std::vector<CudaDevice> out;
  if (!list.is_array()) return out;
  for (const auto& d : list) {
    if (!d.is_object()) continue;
    CudaDevice dev;
    dev.index = d.value("index", 0);
    dev.name = d.value("name", "");
    dev.cc_major = d.value("cc_major", 0);
    dev.cc_minor = d.value("cc_minor", 0);
    dev.total_memory = d.value("total_memory", std::uint64_t{0});
    dev.uuid = d.value("uuid", "");
    dev.mig = d.value("mig", "");
    out.push_back(std::move(dev));
  }
  return out;
}

CudaFacts garbage(std::string_view text, std::string why) {
  CudaFacts f;
  f.state = CudaState::driver_error;
  std::string head(text.substr(0, 60));
  for (char& c : head)
    if (c == '\n' || c == '\r' || static_cast<unsigned char>(c) < 0x20) c = ' ';
  f.detail = "the driver probe printed something that is not its JSON (" + why + ")" +
             (head.empty() ? "" : ": '" + head + "'");
  return f;
}

std::string trim(std::string s) {
  auto b = s.find_first_not_of(" \t\r\n");
  auto e = s.find_last_not_of(" \t\r\n");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

std::optional<std::string> find_on_path(const Context& ctx, const std::string& program) {
  auto path = ctx.env("PATH");
  if (!path) return std::nullopt;
  std::stringstream ss(*path);
  std::string dir;
  while (std::getline(ss, dir, ':')) {
    if (dir.empty()) continue;
    std::string candidate = dir + "/" + program;
    if (access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return std::nullopt;
}

// `nvidia-smi --query-gpu=...` lines: "0, NVIDIA H100 80GB HBM3, 9.0, 81559, GPU-..., 550.54.15".
void from_nvidia_smi(const std::string& text, CudaFacts& f) {
  std::stringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    std::vector<std::string> fields;
    std::stringstream ls(line);
    std::string field;
    while (std::getline(ls, field, ',')) fields.push_back(trim(field));
    if (fields.size() < 6) continue;
    std::string name = fields[1];
    for (size_t i = 2; i + 4 < fields.size(); ++i) name += ", " + fields[i];  // a comma in the name
    size_t n = fields.size();
    CudaDevice d;
    d.index = std::atoi(fields[0].c_str());
    d.name = name;
    std::sscanf(fields[n - 4].c_str(), "%d.%d", &d.cc_major, &d.cc_minor);
    d.total_memory = std::strtoull(fields[n - 3].c_str(), nullptr, 10) * 1024 * 1024;
    d.uuid = fields[n - 2];
    if (f.kernel_driver.empty()) f.kernel_driver = fields[n - 1];
    f.devices.push_back(std::move(d));
  }
}

}  // namespace

std::string cuda_version_text(int v) {
  if (v <= 0) return {};
  return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10);
}

int run_cuda_probe(std::ostream& out) {
  json j;
  try {
    bool complete = false;
    j["nvml"] = probe_nvml(complete);
    // NVML said everything (version, every device's capability): cuInit is not needed.
    j["cuda"] = complete ? json{{"state", "skipped"}} : probe_libcuda();
  } catch (const std::exception& e) {
    j = {{"cuda", {{"state", "driver-error"}, {"detail", std::string("internal error: ") + e.what()}}}};
  }
  out << j.dump(-1, ' ', false, json::error_handler_t::replace) << '\n' << std::flush;
  return 0;
}

CudaFacts parse_cuda_probe_output(std::string_view text) {
  json j = extdeps::json::parse_or_discarded(text);
  if (j.is_discarded()) return garbage(text, "not json");
  if (!j.is_object() || !j.contains("cuda") || !j["cuda"].is_object()) return garbage(text, "no \"cuda\" object");
  try {
    const json& c = j["cuda"];
    const json nvml = j.value("nvml", json::object());
    const bool nvml_loaded = nvml.is_object() && nvml.value("loaded", false);
    CudaFacts f;
    if (c.value("state", "") == "skipped") {
      // NVML answered everything; the Driver API was not asked.
      if (!nvml_loaded) return garbage(text, "the driver api was skipped but nvml did not answer");
      f.source = "nvml";
      f.library = nvml.value("library", "");
      f.driver_version = nvml.value("driver_version", 0);
      f.devices = devices_from(nvml.value("devices", json::array()));
      f.state = f.devices.empty() ? CudaState::no_device : CudaState::ok;
      if (f.devices.empty()) f.detail = "nvml lists no GPU";
    } else {
      auto state = state_from_name(c.value("state", ""));
      if (!state) return garbage(text, "unknown state '" + c.value("state", "") + "'");
      f.state = *state;
      f.source = "cuda";
      f.library = c.value("library", "");
      f.driver_version = c.value("driver_version", 0);
      f.error_code = c.value("error_code", 0);
      f.error_name = c.value("error_name", "");
      f.detail = c.value("detail", "");
      f.devices = devices_from(c.value("devices", json::array()));
      if (nvml_loaded) {
        if (f.driver_version == 0 && f.state != CudaState::stub_library)
          f.driver_version = nvml.value("driver_version", 0);
        auto devices = devices_from(nvml.value("devices", json::array()));
        if (f.devices.empty() && !devices.empty()) {
          f.devices = std::move(devices);
          f.source = "nvml";
          if (f.state == CudaState::no_library) {
            f.state = CudaState::ok;
            f.library = nvml.value("library", "");
            f.detail = "libcuda.so.1 did not load; devices from nvml (" + f.detail + ")";
          } else {
            f.detail += "; nvml lists " + std::to_string(f.devices.size()) + " device(s)";
          }
        } else if (!f.devices.empty()) {
          // The Driver API knows no MIG mode: NVML's, matched by UUID.
          for (auto& d : f.devices)
            for (const auto& n : devices)
              if (!d.uuid.empty() && n.uuid == d.uuid) d.mig = n.mig;
        }
      } else if (nvml.is_object() && nvml.contains("error_code") && f.state != CudaState::ok) {
        // NVML loaded but refused (a driver not loaded, a version mismatch): that says why.
        f.detail += (f.detail.empty() ? "" : "; ") + nvml.value("detail", std::string());
      }
    }
    if (nvml_loaded) {
      f.user_driver = nvml.value("user_driver", "");
      f.nvml_library = nvml.value("library", "");
    }
    f.cuda_version = cuda_version_text(f.driver_version);
    return f;
  } catch (const std::exception& e) {
    return garbage(text, e.what());
  }
}

std::string nvidia_kernel_driver(const Context& ctx) {
  {
    std::istringstream in(read_small_file_or_empty(ctx.host_path("/sys/module/nvidia/version")));
    std::string v;
    if (in && std::getline(in, v) && !trim(v).empty()) return trim(v);
  }
  // "NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.54.15  Thu Feb 22 01:44:30 UTC 2024"
  std::istringstream in(read_small_file_or_empty(ctx.host_path("/proc/driver/nvidia/version")));
  std::string line;
  if (!in || !std::getline(in, line)) return {};
  std::stringstream ss(line);
  std::string word;
  while (ss >> word) {
    bool digits_and_dots = word.find('.') != std::string::npos && std::isdigit(static_cast<unsigned char>(word[0])) &&
                           word.find_first_not_of("0123456789.") == std::string::npos;
    if (digits_and_dots) return word;
  }
  return {};
}

Result<CudaFacts> probe_cuda(const Context& ctx, int timeout_ms, const std::string& exe) {
  if (timeout_ms <= 0) timeout_ms = 10000;
  // The probe runs in a copy of the extdeps binary. A process that is not extdeps (a test binary,
  // a program using the library) has none unless it says where one is: re-executing itself would
  // run its own main again.
  const std::string program = exe.empty() ? ctx.self_exe() : exe;
  if (program.empty()) {
    CudaFacts f;
    f.state = CudaState::no_library;
    f.source = "cuda";
    f.detail = "the driver was not probed: no extdeps binary to run the probe in";
    f.fingerprint = driver_fingerprint(f);
    return f;
  }
  // The cheapest source first: without a kernel module (and not on WSL or a Jetson, whose GPU
  // drivers are not called nvidia) no library could answer, so none is loaded and no child is
  // started. A library named by EXTDEPS_CUDA_LIBRARY or EXTDEPS_NVML_LIBRARY is always asked.
  const std::string kernel = nvidia_kernel_driver(ctx);
  const std::string platform = nvidia_platform(ctx);
  const bool forced =
      ctx.env("EXTDEPS_CUDA_LIBRARY").value_or("") != "" || ctx.env("EXTDEPS_NVML_LIBRARY").value_or("") != "";
  if (kernel.empty() && platform.empty() && !forced) {
    CudaFacts f;
    f.state = CudaState::no_library;
    f.source = "kernel";
    f.detail = "no NVIDIA kernel module (neither /sys/module/nvidia/version nor /proc/driver/nvidia/version)";
    // Every answer carries the fingerprint the host cache compares: without it a machine with no
    // NVIDIA driver never had its facts read from the cache, and detected them on every run.
    f.fingerprint = driver_fingerprint(f);
    return f;
  }
  const auto start = Clock::now();
  auto run = run_child(ctx, {program, "__probe-cuda"}, child_env(ctx), timeout_ms);
  if (!run.ok()) return Error{run.error().code, "cannot start the driver probe: " + run.error().message};

  CudaFacts f;
  f.source = "cuda";
  if (run->timed_out) {
    f.state = CudaState::timeout;
    f.detail = "the driver probe did not answer within " + std::to_string(timeout_ms) + " ms and was killed";
  } else if (run->too_big) {
    f.state = CudaState::driver_error;
    f.detail = "the driver probe printed more than 1 MiB and was killed";
  } else if (run->signal != 0) {
    int sig = run->signal;
    f.state = CudaState::crashed;
    f.detail = "the driver probe was killed by " + signal_name(sig) + " (signal " + std::to_string(sig) + ")";
  } else if (run->exit_status != 0) {
    f.state = CudaState::driver_error;
    f.detail = "the driver probe exited with status " + std::to_string(run->exit_status);
  } else {
    f = parse_cuda_probe_output(run->out);
  }
  f.kernel_driver = kernel;
  f.platform = platform;
  if (platform == "tegra" && f.detail.find("Jetson") == std::string::npos) {
    std::string release = tegra_release(ctx);
    if (!release.empty()) f.detail += (f.detail.empty() ? "" : "; ") + ("Jetson, L4T " + release);
  }
  // The module and the user-mode driver disagree after an upgrade without a reboot: the driver
  // refuses (or will), and only a reboot or a module reload mends it.
  if (!f.kernel_driver.empty() && !f.user_driver.empty() && f.kernel_driver != f.user_driver)
    f.detail +=
        (f.detail.empty() ? "" : "; ") + ("the kernel module is " + f.kernel_driver + " but the user-mode driver is " +
                                          f.user_driver + ": reboot or reload the nvidia module");

  // Neither library loaded: nvidia-smi, where there is one, still knows the devices.
  if (f.state == CudaState::no_library) {
    auto left = timeout_ms - std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start).count();
    if (auto smi = find_on_path(ctx, "nvidia-smi"); smi && left > 0) {
      auto q = run_child(ctx,
                         {*smi, "--query-gpu=index,name,compute_cap,memory.total,uuid,driver_version",
                          "--format=csv,noheader,nounits"},
                         child_env(ctx), static_cast<int>(left));
      if (q.ok() && q->ok()) {
        CudaFacts s;
        s.kernel_driver = f.kernel_driver;
        from_nvidia_smi(q->out, s);
        if (!s.devices.empty()) {
          s.state = CudaState::ok;
          s.source = "nvidia-smi";
          s.library = *smi;
          s.detail = "libcuda.so.1 did not load; devices from nvidia-smi (" + f.detail + ")";
          s.platform = f.platform;
          f = std::move(s);
        }
      }
    }
  }
  f.fingerprint = driver_fingerprint(f);
  return f;
}

std::string nvidia_platform(const Context& ctx) {
  std::error_code ec;
  // WSL 2 passes the GPU through /dev/dxg and keeps the user-mode driver in /usr/lib/wsl/lib.
  if (std::filesystem::exists(ctx.host_path("/usr/lib/wsl/lib"), ec) ||
      std::filesystem::exists(ctx.host_path("/dev/dxg"), ec))
    return "wsl";
  if (std::filesystem::exists(ctx.host_path("/etc/nv_tegra_release"), ec)) return "tegra";
  return {};
}

std::string tegra_release(const Context& ctx) {
  // "# R36 (release), REVISION: 4.0, GCID: 37537400, BOARD: generic, EABI: aarch64, DATE: ..."
  std::istringstream in(read_small_file_or_empty(ctx.host_path("/etc/nv_tegra_release")));
  std::string line;
  if (!in || !std::getline(in, line)) return {};
  int major = -1;
  char minor[32] = {};
  if (std::sscanf(line.c_str(), "# R%d (release), REVISION: %31[0-9.]", &major, minor) != 2) return {};
  return std::to_string(major) + "." + minor;
}

std::string driver_fingerprint(const CudaFacts& f) {
  std::string out = "module " + (f.kernel_driver.empty() ? std::string("none") : f.kernel_driver);
  for (const std::string* lib : {&f.library, &f.nvml_library}) {
    if (lib->empty() || (lib == &f.nvml_library && f.nvml_library == f.library)) continue;
    out += "; " + *lib + " " + file_stamp(*lib).value_or("gone");
  }
  return out;
}

std::string nvidia_gpu_list(const Context& ctx) {
  // One folder per GPU the module bound, named by PCI address: cheap, no library.
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(ctx.host_path("/proc/driver/nvidia/gpus"), ec))
    names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ",") + n;
  return out;
}

}  // namespace extdeps::detect
