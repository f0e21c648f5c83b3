// What the driver probe tests share: a Context whose probe finds exactly the libraries a test
// names (a fake libnvidia-ml.so.1, a fake libcuda.so.1, or neither), over a root of its own and
// with nothing on PATH, and the probe run as the extdeps binary runs it.
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <string>

#include "core/context/context.h"
#include "core/detect/cuda_probe.h"
#include "tests/test_support.h"

namespace extdeps::detect::test_probe {

using Env = std::map<std::string, std::string>;

inline Context probe_context(std::string nvml, std::string cuda, const Env& extra, std::string root) {
  Env env = {
      {"EXTDEPS_NVML_LIBRARY", std::move(nvml)}, {"EXTDEPS_CUDA_LIBRARY", std::move(cuda)}, {"PATH", test::temp_dir()}};
  for (const auto& [k, v] : extra) env[k] = v;
  return Context::for_test(root.empty() ? test::temp_dir() : root, env);
}

inline CudaFacts probe(const Context& ctx, int timeout_ms = 10000) {
  auto r = probe_cuda(ctx, timeout_ms, EXTDEPS_BINARY);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
  return r.ok() ? *r : CudaFacts{};
}

}  // namespace extdeps::detect::test_probe
