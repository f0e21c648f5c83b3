#include "core/env/collect.h"

#include <algorithm>
#include <filesystem>

#include "core/detect/cuda_table.h"

namespace extdeps::env {

namespace fs = std::filesystem;

namespace {

bool is_file(const Context& ctx, const std::string& path) {
  std::error_code ec;
  return fs::is_regular_file(ctx.host_path(path), ec);
}

// The machine path of a path under ctx.root().
std::string machine_path(const Context& ctx, const std::string& under_root) {
  const std::string& root = ctx.root();
  if (root == "/" || root.empty()) return under_root;
  std::string r = root.back() == '/' ? root.substr(0, root.size() - 1) : root;
  if (under_root.rfind(r + "/", 0) == 0) return under_root.substr(r.size());
  return under_root;
}

bool on_path(const Context& ctx, const std::string& dir) {
  auto path = ctx.env("PATH");
  if (!path) return false;
  std::string_view p = *path;
  while (true) {
    size_t colon = p.find(':');
    std::string_view entry = p.substr(0, colon);
    while (entry.size() > 1 && entry.back() == '/') entry.remove_suffix(1);
    if (entry == dir) return true;
    if (colon == std::string_view::npos) return false;
    p.remove_prefix(colon + 1);
  }
}

// The nvcc that meets a toolkit need: the one the plan names (an nvcc the detection layer found
// is the package "nvcc" of the "host" ecosystem, its path as origin), else one in a folder a
// provider put on PATH (a conda prefix's bin/), else the detection layer's.
std::string nvcc_for(const Context& ctx, const plan::RequirementOutcome& r, const BuildEnv& env,
                     const detect::HostFacts* host) {
  for (const auto& p : r.packages)
    if (p.ecosystem == "host" && p.name == "nvcc" && !p.where.empty()) return p.where;
  if (const EnvVariable* path = env.find("PATH"))
    for (const auto& dir : path->entries)
      if (is_file(ctx, dir + "/nvcc")) return dir + "/nvcc";
  if (host)
    for (const auto& c : host->compilers)
      if (c.name == "nvcc" && !c.path.empty()) return c.path;
  return {};
}

}  // namespace

bool all_satisfied(const plan::Outcome& outcome) {
  return std::all_of(outcome.requirements.begin(), outcome.requirements.end(),
                     [](const auto& r) { return r.status == plan::Status::satisfied; });
}

std::string cuda_root_of(const Context& ctx, const std::string& nvcc) {
  std::error_code ec;
  fs::path real = fs::canonical(ctx.host_path(nvcc), ec);
  if (ec || !fs::is_regular_file(real, ec)) return {};
  fs::path bin = real.parent_path();
  if (bin.filename() != "bin") return {};
  return machine_path(ctx, bin.parent_path().string());
}

BuildEnv collect(const Context& ctx, const plan::Outcome& outcome,
                 const std::vector<std::unique_ptr<Provider>>& providers, const detect::HostFacts* host) {
  BuildEnv env;
  for (const auto& r : outcome.requirements) {
    if (r.status != plan::Status::satisfied) continue;
    const std::string id = r.requirement.url.id();
    for (const auto& p : r.packages) {
      if (!p.installed) continue;
      for (const auto& provider : providers) {
        if (provider->ecosystem() != p.ecosystem) continue;
        provider->add_build_env(ctx, {p.name, p.version, p.where, id, category_name(r.requirement.category)}, env);
        break;
      }
    }
  }
  // Toolkits last: a provider may have put the folder of their nvcc on PATH.
  for (const auto& r : outcome.requirements) {
    if (r.status != plan::Status::satisfied) continue;
    const std::string id = r.requirement.url.id();
    if (!detect::is_cuda_toolkit_id(id)) continue;
    std::string nvcc = nvcc_for(ctx, r, env, host);
    std::string root = nvcc.empty() ? "" : cuda_root_of(ctx, nvcc);
    if (root.empty()) continue;
    env.set("CUDA_HOME", root, id);
    env.set("CUDAToolkit_ROOT", root, id);
    std::string bin = fs::path(nvcc).parent_path().string();
    if (!on_path(ctx, bin)) env.prepend_path("PATH", bin, id);
  }
  return env;
}

}  // namespace extdeps::env
