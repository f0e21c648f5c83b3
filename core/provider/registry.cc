// The providers as the rest of extdeps sees them: built from the descriptors the build lists
// (provider_list.cc, written by CMake from EXTDEPS_PROVIDERS), in default preference order.
#include <algorithm>
#include <atomic>
#include <deque>
#include <functional>
#include <mutex>

#include "core/mapping/names.h"
#include "core/provider/provider.h"
#include "core/util/text.h"

namespace extdeps {

Result<std::unique_ptr<SpecMatcher>> Provider::compile_spec(std::string_view spec) const {
  return error_at(ExitCode::bad_input, "",
                  "the " + std::string(manager().empty() ? ecosystem() : manager()) +
                      " provider has no match expressions ('" + std::string(spec) + "')");
}

Result<void> Provider::prepare(const Context&, fetch::Fetcher&) { return {}; }

Result<std::string> Provider::render_environment(const EnvironmentRequest& request) const {
  return error_at(
      ExitCode::bad_input, "",
      "the " + std::string(manager().empty() ? ecosystem() : manager()) + " provider renders no " + request.format);
}
void Provider::add_build_env(const Context&, const InstalledRef&, BuildEnv&) const {}

std::string Provider::missing_component(std::string_view package, std::string_view component) const {
  return std::string(package) + " is in the " + std::string(component) +
         " component, which the sources read here do not list";
}

std::optional<std::string> Provider::command_problem(const PlannedPackage& p) const {
  if (auto n = mapping::name_problem(manager(), p.name)) return n;
  if (auto v = mapping::argument_problem("version", p.version)) return v;
  return mapping::argument_problem("build string", p.build);
}

const std::vector<std::string>& ProviderSettings::names_for(std::string_view ecosystem) const {
  static const std::vector<std::string> kNone;
  if (!request_names) return kNone;
  auto it = request_names->find(std::string(ecosystem));
  return it == request_names->end() ? kNone : it->second;
}

bool ProviderSettings::names(std::string_view manager) const {
  return std::find(managers.begin(), managers.end(), manager) != managers.end();
}

const OptionValue* ProviderSettings::option(std::string_view name) const {
  auto it = options.find(name);
  return it == options.end() ? nullptr : &it->second;
}

std::string ProviderSettings::option_text(std::string_view name) const {
  const OptionValue* v = option(name);
  return v && !v->values.empty() ? v->values.front() : std::string();
}

std::vector<std::string> ProviderSettings::option_list(std::string_view name) const {
  const OptionValue* v = option(name);
  return v ? v->values : std::vector<std::string>{};
}

std::optional<double> ProviderSettings::option_seconds(std::string_view name) const {
  const OptionValue* v = option(name);
  return v && !v->values.empty() ? parse_seconds(v->values.front()) : std::nullopt;
}

namespace {

// Readers take the current list with one atomic load and no lock. A registration (a plugin
// found, a handful per process) copies the list under the lock and publishes the copy; the lists
// before it are kept, never changed or freed, so a reader still walking one is not disturbed.
struct Registry {
  std::mutex mutex;  // registrations, one at a time
  std::deque<std::vector<const ProviderDescriptor*>> lists{compiled_in_descriptors()};
  std::atomic<const std::vector<const ProviderDescriptor*>*> current{&lists.back()};
  std::vector<std::unique_ptr<ProviderDescriptor>> added;
};

Registry& registry() {
  static Registry r;
  return r;
}

}  // namespace

const std::vector<const ProviderDescriptor*>& provider_descriptors() {
  return *registry().current.load(std::memory_order_acquire);
}

bool register_descriptor(std::unique_ptr<ProviderDescriptor> d) {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  for (const ProviderDescriptor* x : *r.current.load(std::memory_order_relaxed)) {
    if (x->name == d->name || x->ecosystem == d->ecosystem) return false;
    if (!d->manager.empty() && (x->installs_with(d->manager) || d->installs_with(x->manager))) return false;
    for (const auto& o : d->options)
      for (const auto& xo : x->options)
        if (o.name == xo.name) return false;
  }
  std::vector<const ProviderDescriptor*> next = r.lists.back();
  next.push_back(d.get());
  r.lists.push_back(std::move(next));  // a deque: the lists before it stay where they are
  r.added.push_back(std::move(d));
  r.current.store(&r.lists.back(), std::memory_order_release);
  return true;
}

bool ProviderDescriptor::installs_with(std::string_view m) const {
  if (m.empty()) return false;
  return m == manager || std::find(manager_aliases.begin(), manager_aliases.end(), m) != manager_aliases.end();
}

const ProviderDescriptor* descriptor_for_manager(std::string_view manager) {
  for (const ProviderDescriptor* d : provider_descriptors())
    if (d->installs_with(manager)) return d;
  return nullptr;
}

std::vector<const version::Scheme*> version_schemes() {
  std::vector<const version::Scheme*> out = {&version::segments_scheme, &version::pep440_scheme};
  for (const ProviderDescriptor* d : compiled_in_descriptors())
    if (d->scheme && std::find(out.begin(), out.end(), d->scheme) == out.end()) out.push_back(d->scheme);
  return out;
}

const version::Scheme* version_scheme_named(std::string_view name) {
  for (const version::Scheme* s : version_schemes())
    if (s->name == name) return s;
  return nullptr;
}

std::string version_scheme_names_text() {
  std::vector<std::string_view> names;
  for (const version::Scheme* s : version_schemes()) names.push_back(s->name);
  return or_list(names);
}

const UpstreamRule* upstream_rule_named(std::string_view name) {
  for (const ProviderDescriptor* d : provider_descriptors())
    for (const auto& r : d->upstream_rules)
      if (r.name == name) return &r;
  return nullptr;
}

std::string version_rule_forms_text() {
  std::string out = "\"native\"";
  for (const ProviderDescriptor* d : provider_descriptors())
    for (const auto& r : d->upstream_rules) out += ", \"" + std::string(r.name) + "\"";
  return out + ", \"none\", { map = { \"NATIVE\" = \"UPSTREAM\" } } or { regex = '...', from = \"package\" }";
}

std::string version_rule_of(std::string_view manager) {
  const ProviderDescriptor* d = descriptor_for_manager(manager);
  return d && !d->imported_version_rule.empty() ? std::string(d->imported_version_rule) : "native";
}

const HostFormat* host_format_named(std::string_view name) {
  for (const ProviderDescriptor* d : provider_descriptors())
    for (const auto& f : d->host_formats)
      if (f.name == name) return &f;
  return nullptr;
}

std::vector<std::string> known_id_like(std::string_view id) {
  for (const ProviderDescriptor* d : provider_descriptors())
    for (const auto& system : d->derived_systems)
      if (system.id == id) return {system.like.begin(), system.like.end()};
  return {};
}

namespace {

// The descriptor one of whose `list` has `value` as its `key`, with that element.
template <class T>
const ProviderDescriptor* descriptor_with(std::vector<T> ProviderDescriptor::*list, std::string_view T::*key,
                                          std::string_view value, const T** found) {
  for (const ProviderDescriptor* d : provider_descriptors())
    for (const T& element : d->*list)
      if (element.*key == value) {
        if (found) *found = &element;
        return d;
      }
  return nullptr;
}

}  // namespace

const ProviderDescriptor* descriptor_for_rosdep_os(std::string_view os, const RosdepPlatform** found) {
  return descriptor_with(&ProviderDescriptor::rosdep_platforms, &RosdepPlatform::os, os, found);
}

std::string rosdep_os_forms_text(bool with_example) {
  std::vector<std::string> forms;
  std::string example;
  for (const ProviderDescriptor* d : provider_descriptors())
    for (const auto& p : d->rosdep_platforms) {
      forms.push_back(std::string(p.os) + ":" + std::string(p.release_form));
      if (example.empty()) example = std::string(p.os) + ":" + std::string(p.example_release);
    }
  if (forms.empty()) return "OS:RELEASE, for an OS whose installer a provider of this build is (none here is)";
  return or_list(forms) + (with_example ? " (e.g. " + example + ")" : "");
}

const ProviderDescriptor* descriptor_for_option(std::string_view option, const ProviderOption** found) {
  return descriptor_with(&ProviderDescriptor::options, &ProviderOption::name, option, found);
}

bool wanted(const Provider& provider, const Context& ctx, const ProviderSettings& settings) {
  if (!provider.manager().empty() && !settings.managers.empty()) {
    const auto named = canonical_managers(settings.managers);
    if (std::find(named.begin(), named.end(), provider.manager()) == named.end()) return false;
  }
  return provider.available(ctx);
}

std::vector<std::unique_ptr<Provider>> make_providers(const Context& ctx, const ProviderSettings& settings) {
  std::vector<std::unique_ptr<Provider>> out;
  for (const ProviderDescriptor* d : provider_descriptors()) out.push_back(d->make(ctx, settings));
  return out;
}

}  // namespace extdeps

namespace extdeps {

std::string canonical_manager(std::string_view name) {
  const ProviderDescriptor* d = descriptor_for_manager(name);
  return d && !d->manager.empty() ? std::string(d->manager) : std::string(name);
}

std::vector<std::string> canonical_managers(const std::vector<std::string>& names) {
  std::vector<std::string> out;
  for (const auto& n : names) {
    std::string c = canonical_manager(n);
    if (std::find(out.begin(), out.end(), c) == out.end()) out.push_back(std::move(c));
  }
  return out;
}

}  // namespace extdeps
