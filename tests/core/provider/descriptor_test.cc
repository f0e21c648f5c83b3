// The provider descriptors (core/provider/descriptor.h): what the build registered, that each
// one agrees with the provider it makes, and that the command line, the configuration, the
// library and the name rules are made from them.
#include "core/provider/descriptor.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <set>

#include "core/config/command_options.h"
#include "core/config/variables.h"
#include "core/mapping/names.h"
#include "core/provider/provider.h"
#include "extdeps/extdeps_c.h"
#include "tests/support/cli_fixture.h"
#include "tests/test_support.h"

namespace extdeps {
namespace {

TEST(ProviderDescriptor, EachIsCompleteAndAgreesWithTheProviderItMakes) {
  // The compiled-in ones (a plugin registered earlier in this process brings its own table).
  const auto& all = compiled_in_descriptors();
  ASSERT_FALSE(all.empty());
  std::set<std::string_view> names, options, keys;
  Context ctx = Context::for_test(test::data_path("apt/bookworm"), {{"PATH", ""}});
  for (const ProviderDescriptor* d : all) {
    SCOPED_TRACE(std::string(d->name));
    EXPECT_TRUE(names.insert(d->name).second) << "registered twice";
    EXPECT_FALSE(d->ecosystem.empty());
    EXPECT_FALSE(d->summary.empty());
    ASSERT_NE(d->make, nullptr);
    auto p = d->make(ctx, ProviderSettings{});
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(p->ecosystem(), d->ecosystem);
    EXPECT_EQ(p->manager(), d->manager);
    EXPECT_EQ(&p->scheme(), d->scheme);
    // Its mapping table ships with extdeps.
    EXPECT_TRUE(
        std::filesystem::exists(std::string(EXTDEPS_SOURCE_MAPPINGS_DIR) + "/" + std::string(d->ecosystem) + ".toml"));
    for (const auto& o : d->options) {
      // An option is a flag of every planning command and a key of the C API: one name each.
      EXPECT_TRUE(options.insert(o.name).second) << o.name << " is another provider's option too";
      EXPECT_FALSE(o.help.empty()) << o.name;
      EXPECT_EQ(config::commands_with_option(o.name), "") << o.name << " is a core option's name";
      if (!o.config_key.empty()) EXPECT_TRUE(keys.insert(o.config_key).second) << o.config_key;
    }
    if (d->verify_index) EXPECT_FALSE(d->verify_reads.empty());
    if (!d->manager.empty()) EXPECT_EQ(descriptor_for_manager(d->manager), d);
    for (auto alias : d->manager_aliases) EXPECT_EQ(descriptor_for_manager(alias), d) << alias;
  }
  EXPECT_EQ(descriptor_for_manager(""), nullptr);
  EXPECT_EQ(descriptor_for_manager("no-such-manager"), nullptr);
}

// A table's manager key picks the name rule of the provider that installs with it (an alias
// too); a manager no provider has gets the generic rule.
TEST(ProviderDescriptor, NameRulesComeFromTheDescriptor) {
  if (!descriptor_for_manager("apt")) GTEST_SKIP() << "built without the apt provider";
  EXPECT_FALSE(mapping::name_problem("apt-get", "libxml2-dev"));
  EXPECT_TRUE(mapping::name_problem("apt-get", "LibXML2"));  // Debian names are lower case
  EXPECT_FALSE(mapping::name_problem("emerge", "LibXML2"));  // no emerge provider: generic rule
  EXPECT_TRUE(mapping::name_problem("emerge", "-oPre-Invoke=x"));
}

// An ID as os-release(5) allows it: lower-case letters, digits and "._-".
bool os_release_id(std::string_view id) {
  return !id.empty() && std::all_of(id.begin(), id.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';
  });
}

// What the descriptors know leads somewhere: every derived system (--system rocky:9) reaches,
// through its ID_LIKE, a table shipped in mappings/ and is known once; a version rule is defined
// once, under a name core does not use, and a descriptor's imported rule is one of them; every
// manager variable that states a fact states one EXTDEPS_OVERRIDE_* states, once, and is in the
// registry `extdeps config --variables` lists.
TEST(ProviderDescriptor, SystemsRulesAndFactVariablesLeadToWhatExists) {
  const std::filesystem::path shipped(EXTDEPS_SOURCE_MAPPINGS_DIR);
  std::set<std::string_view> systems, variables, rule_names{"native", "regex"};
  const std::set<std::string_view> facts{"cuda", "cuda-arch", "glibc", "linux", "arch", "os"};
  for (const ProviderDescriptor* d : compiled_in_descriptors()) {
    SCOPED_TRACE(std::string(d->name));
    for (const auto& system : d->derived_systems) {
      EXPECT_TRUE(systems.insert(system.id).second) << system.id << " is known twice";
      EXPECT_FALSE(system.like.empty()) << system.id;
      EXPECT_TRUE(os_release_id(system.id)) << system.id;
      bool tabled = false;
      for (auto like : system.like) {
        EXPECT_TRUE(os_release_id(like) && like != system.id) << system.id << " like " << like;
        tabled = tabled || std::filesystem::exists(shipped / (std::string(like) + ".toml"));
      }
      // SLES (ID_LIKE="suse") reaches opensuse.toml through the dnf provider's own choice.
      if (system.id != "sles") EXPECT_TRUE(tabled) << system.id << ": none of its ID_LIKE has a table in mappings/";
      EXPECT_EQ(known_id_like(system.id), std::vector<std::string>(system.like.begin(), system.like.end()));
    }
    for (const auto& r : d->upstream_rules) {
      EXPECT_TRUE(rule_names.insert(r.name).second) << r.name << " is defined twice, or is core's";
      EXPECT_NE(r.upstream, nullptr) << r.name;
      EXPECT_EQ(upstream_rule_named(r.name), &r);
    }
    if (!d->imported_version_rule.empty())
      EXPECT_TRUE(rule_names.count(d->imported_version_rule)) << d->imported_version_rule << " is defined nowhere";
    for (const auto& f : d->fact_overrides) {
      EXPECT_TRUE(facts.count(f.fact)) << f.fact << " is not a fact EXTDEPS_OVERRIDE_* states";
      EXPECT_TRUE(variables.insert(f.variable).second) << f.variable << " twice";
      EXPECT_TRUE(config::is_registered(f.variable)) << f.variable;
    }
  }
  EXPECT_TRUE(known_id_like("debian").empty());  // a system of its own, like none
  EXPECT_TRUE(known_id_like("").empty());
}

// A provider's --format names are its own: none is core's (detect's text, json and variants,
// resolve's text and json, which core answers first) or another provider's, and each says what
// it writes, as the --help built from them shows.
TEST(ProviderDescriptor, FormatNamesAreTheProvidersOwn) {
  std::set<std::string_view> detect{"text", "json", "variants"}, resolve{"text", "json"};
  const config::CommandOption* detect_format = config::command_option("format", config::Command::detect);
  const config::CommandOption* resolve_format = config::command_option("format", config::Command::resolve);
  ASSERT_TRUE(detect_format && resolve_format);
  const std::string detect_help = config::option_help(*detect_format);
  const std::string resolve_help = config::option_help(*resolve_format);
  for (const ProviderDescriptor* d : compiled_in_descriptors()) {
    SCOPED_TRACE(std::string(d->name));
    for (const auto& f : d->host_formats) {
      EXPECT_TRUE(detect.insert(f.name).second) << f.name << " is core's or another provider's";
      EXPECT_FALSE(f.help.empty() || !f.write) << f.name;
      EXPECT_EQ(host_format_named(f.name), &f);
      EXPECT_NE(detect_help.find(std::string(f.name) + " (" + std::string(f.help) + ")"), std::string::npos)
          << detect_help;
    }
    for (const auto& f : d->environment_formats) {
      EXPECT_TRUE(resolve.insert(f.name).second) << f.name << " is core's or another provider's";
      EXPECT_FALSE(f.help.empty()) << f.name;
      EXPECT_NE(resolve_help.find(std::string(f.name) + " (" + std::string(f.help) + ")"), std::string::npos)
          << resolve_help;
    }
  }
  // Core's come first: with no provider's format, the list is "text, json or variants (...)".
  EXPECT_TRUE(detect_help.starts_with("text, json")) << detect_help;
  EXPECT_NE(detect_help.find("variants ("), std::string::npos) << detect_help;
  EXPECT_EQ(config::detect_formats_text(false).find(" ("), std::string::npos) << config::detect_formats_text(false);
  EXPECT_TRUE(resolve_help.starts_with("text, json") || resolve_help == "text or json") << resolve_help;
}

// rosdep's OSes: each known once, its installer among those rosdep registers for it, and the
// --os help and error name them.
TEST(ProviderDescriptor, RosdepPlatformsAreEachTheirManagersOwn) {
  std::set<std::string_view> oses;
  std::size_t n = 0;
  for (const ProviderDescriptor* d : compiled_in_descriptors()) {
    for (const auto& p : d->rosdep_platforms) {
      SCOPED_TRACE(std::string(d->name) + ": " + std::string(p.os));
      ++n;
      EXPECT_TRUE(oses.insert(p.os).second) << "known twice";
      EXPECT_NE(std::find(p.installers.begin(), p.installers.end(), p.installer), p.installers.end());
      EXPECT_FALSE(p.ecosystem.empty() || p.release_form.empty() || p.example_release.empty());
      const RosdepPlatform* found = nullptr;
      EXPECT_EQ(descriptor_for_rosdep_os(p.os, &found), d);
      EXPECT_EQ(found, &p);
      EXPECT_NE(rosdep_os_forms_text(false).find(std::string(p.os) + ":" + std::string(p.release_form)),
                std::string::npos);
    }
  }
  EXPECT_EQ(descriptor_for_rosdep_os("windows"), nullptr);
  if (n == 0) EXPECT_EQ(rosdep_os_forms_text(true).find("e.g."), std::string::npos);
}

class ProviderOptionsCli : public test::CliFixture {};

// The planning commands take every provider's options, made from the descriptors, and say
// which provider each belongs to; `extdeps providers` lists them with their other places.
TEST_F(ProviderOptionsCli, FlagsAndTheListComeFromTheDescriptors) {
  auto help = run({"resolve", "--help"});
  EXPECT_EQ(help.rc, 0);
  auto listed = run({"providers"});
  EXPECT_EQ(listed.rc, 0) << listed.err;
  auto json = run({"providers", "--json"});
  EXPECT_EQ(json.rc, 0) << json.err;
  for (const ProviderDescriptor* d : provider_descriptors()) {
    EXPECT_NE(listed.out.find(std::string(d->name) + ": " + std::string(d->summary)), std::string::npos) << listed.out;
    EXPECT_NE(json.out.find("\"ecosystem\": \"" + std::string(d->ecosystem) + "\""), std::string::npos);
    for (const auto& o : d->options) {
      EXPECT_NE(help.out.find("--" + std::string(o.name)), std::string::npos) << o.name << "\n" << help.out;
      EXPECT_NE(listed.out.find("--" + std::string(o.name)), std::string::npos) << o.name;
      for (auto e : o.env) EXPECT_NE(listed.out.find(std::string(e)), std::string::npos) << e;
    }
  }
}

// The library's C API takes a provider option by its name and refuses one no provider has,
// listing the known ones.
TEST(ProviderOptionsApi, TheCApiTakesProviderOptionsByName) {
  extdeps_session* s = extdeps_session_new();
  ASSERT_NE(s, nullptr);
  for (const ProviderDescriptor* d : provider_descriptors())
    for (const auto& o : d->options)
      EXPECT_EQ(extdeps_session_set(s, std::string(o.name).c_str(), "x"), 0) << extdeps_session_error(s);
  EXPECT_EQ(extdeps_session_set(s, "chanel", "x"), 2);
  std::string error = extdeps_session_error(s);
  for (const ProviderDescriptor* d : provider_descriptors())
    for (const auto& o : d->options) EXPECT_NE(error.find(std::string(o.name)), std::string::npos) << error;
  extdeps_session_free(s);
}

}  // namespace
}  // namespace extdeps
