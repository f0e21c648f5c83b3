// Fuzzes a configuration file: the input written as a project's pyproject.toml, read by
// config::load (toml++, the depth bound, every key's reader and each option's kind check), then
// handed to a Context (config::apply_to) and read back by the typed readers. Properties: a refusal
// names the file (every error is at its place); an accepted file's options are each one the build
// has, and each value, checked again, is unchanged (the check makes a value canonical once) and
// reads back through config::value and its typed reader without an error.
#include <cstdint>
#include <string>

#include "core/config/config.h"
#include "core/config/values.h"
#include "tests/fuzz/fuzz_support.h"

using namespace extdeps;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text = fuzz::as_text(data, size);
  const std::string path = fuzz::TempDir::write("pyproject.toml", text);
  Context ctx = Context::for_test("/", {{"XDG_CONFIG_HOME", fuzz::TempDir::path() + "/none"}});
  auto s = config::load(ctx, path, {});
  if (!s) {
    if (s.error().message.rfind(path, 0) != 0) fuzz::fail("an error that does not name the file", s.error().message);
    return 0;
  }
  for (const auto* values : {&s->core_options, &s->provider_options})
    for (const auto& [name, value] : *values) {
      const ProviderOption* o = config::find_option(name);
      if (!o) fuzz::fail("an option the build does not have", name);
      if (!o->list && value.values.size() != 1) fuzz::fail("a plain option with other than one value", name);
      OptionValue again = value;
      if (!check_option_value(*o, again)) fuzz::fail("a value its own check refuses", name, value.values.front());
      if (again.values != value.values) fuzz::fail("a value the check changes twice", name, again.values.front());
    }
  config::apply_to(ctx, *s);
  for (const auto& [name, value] : s->core_options) {
    const ProviderOption* o = config::find_option(name);
    bool read = config::value(ctx, name).ok();
    if (o->kind == OptionKind::seconds) read = read && config::seconds(ctx, name).ok();
    if (o->kind == OptionKind::size)
      read = read && config::size(ctx, name).ok() && config::size(ctx, name)->value() > 0;
    if (o->kind == OptionKind::flag) read = read && config::flag(ctx, name).ok();
    if (!read) fuzz::fail("a resolved value its reader refuses", name);
  }
  return 0;
}
