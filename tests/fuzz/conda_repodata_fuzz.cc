// Fuzzes a conda channel's repodata.json through the streaming reader (read_repodata_buffer):
// info, packages and packages.conda, each record's fields, base_url resolution. Each record's
// depends and constrains are compiled as the solver would (compile_conda_spec).
#include <cstdint>

#include "providers/conda/matchspec.h"
#include "providers/conda/repodata.h"
#include "tests/fuzz/fuzz_support.h"

using namespace extdeps;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  conda::RepodataOptions options;
  options.location = "https://conda.anaconda.org/conda-forge/linux-64/";
  options.subdir = "linux-64";
  auto compile = [](const NativeDep& d) {
    if (d.op != DepOp::spec) return;
    if (auto m = conda::compile_conda_spec(d.version)) (void)(*m)->matches("1.2.3", "py310_0");
  };
  auto r = conda::read_repodata_buffer(fuzz::as_text(data, size), "repodata.json", options, [&](PackageRecord&& rec) {
    for (const auto& alts : rec.depends)
      for (const auto& d : alts) compile(d);
    for (const auto& d : rec.constrains) compile(d);
  });
  (void)r;
  return 0;
}
