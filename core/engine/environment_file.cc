#include "core/engine/environment_file.h"

#include "core/provider/descriptor.h"
#include "core/util/text.h"

namespace extdeps::engine {

Result<const Provider*> environment_renderer(const Context& ctx,
                                             const std::vector<std::unique_ptr<Provider>>& providers,
                                             const std::string& format) {
  if (format.empty()) return nullptr;
  std::vector<std::string> known{"text", "json"};
  for (const auto& p : providers) {
    const ProviderDescriptor* d = descriptor_for_manager(p->manager());
    if (!d) continue;
    for (const auto& f : d->environment_formats) {
      known.emplace_back(f.name);
      if (f.name != format) continue;
      if (!p->available(ctx)) {
        const std::string manager(p->manager());
        const std::string what = "--format " + format + " renders the " + manager + " packages of a plan, and the " +
                                 manager + " provider is not in use";
        Error e = bad_input(what + ": name it with --manager " + manager);
        e.what = what;
        e.hint = "name it with --manager " + manager;
        e.from = "--format";
        return e;
      }
      return p.get();
    }
  }
  Error e = bad_input("unknown format '" + format + "' (known: " + join(known, ", ") + ")");
  e.what = "unknown format '" + format + "'";
  e.expected = "one of " + join(known, ", ");
  e.from = "--format";
  return e;
}

Result<std::string> render_environment(const Provider& renderer, const plan::Outcome& outcome,
                                       const std::string& format, const std::string& declaration) {
  EnvironmentRequest request;
  request.format = format;
  request.declaration = declaration;
  const std::string manager(renderer.manager());
  for (const auto& r : outcome.requirements) {
    std::string need = r.requirement.url.id() + (r.requirement.range.any() ? "" : " " + r.requirement.range.str());
    if (r.status != plan::Status::satisfied && r.status != plan::Status::planned) {
      request.unmet.push_back(need + " (" + r.message + ")");
      continue;
    }
    std::string others;
    for (const auto& p : r.packages) {
      if (p.manager == manager) {
        request.packages.push_back(
            {p.name, p.version, std::string(category_name(r.requirement.category)), need, p.installed});
      } else {
        others += (others.empty() ? "" : ", ") + p.manager + ": " + p.name;
      }
    }
    if (!others.empty()) request.elsewhere.push_back(need + " (" + others + ")");
  }
  return renderer.render_environment(request);
}

}  // namespace extdeps::engine
