#include "core/fetch/options.h"

#include <CLI/CLI.hpp>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <utility>

#include "core/config/command_options.h"
#include "core/config/values.h"

namespace extdeps::fetch {

void add_fetch_flags(CLI::App& command, config::Command c, FetchFlags& flags) {
  config::add_command_option(command, c, "cache-dir", flags.cache_dir);
  config::add_command_option(command, c, "offline", flags.offline);
}

std::optional<std::uint64_t> parse_size(std::string_view text) {
  std::uint64_t n = 0;
  std::size_t i = 0;
  for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) {
    if (n > (UINT64_MAX - 9) / 10) return std::nullopt;
    n = n * 10 + static_cast<std::uint64_t>(text[i] - '0');
  }
  if (i == 0) return std::nullopt;
  std::string unit(text.substr(i));
  for (char& c : unit) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  int shift = 0;
  if (unit.empty() || unit == "B") shift = 0;
  else if (unit == "K" || unit == "KB" || unit == "KIB") shift = 10;
  else if (unit == "M" || unit == "MB" || unit == "MIB") shift = 20;
  else if (unit == "G" || unit == "GB" || unit == "GIB") shift = 30;
  else if (unit == "T" || unit == "TB" || unit == "TIB") shift = 40;
  else return std::nullopt;
  if (n == 0 || n > (UINT64_MAX >> shift)) return std::nullopt;
  return n << shift;
}

Result<Options> options_for(Context& ctx, const FetchFlags& flags) {
  if (!flags.cache_dir.empty()) ctx.set_cache_dir(flags.cache_dir);
  Options o;
  if (ctx.cache_enabled()) o.cache_dir = ctx.cache_dir() + "/http";
  o.progress = flags.stderr_is_terminal || ctx.stderr_is_terminal();
  // Core's options, resolved and checked by config::load (or the environment's, where no run's
  // settings were resolved); --offline counts whatever they say.
  auto offline = config::flag(ctx, "offline");
  if (!offline.ok()) return offline.error();
  o.offline = flags.offline || offline->value_or(false);
  for (auto [name, field] :
       {std::pair{"max-download-size", &o.max_download_bytes}, std::pair{"max-download-total", &o.max_run_bytes}}) {
    auto size = config::size(ctx, name);
    if (!size.ok()) return size.error();
    if (*size) *field = **size;
  }
  auto deadline = config::seconds(ctx, "download-deadline");
  if (!deadline.ok()) return deadline.error();
  if (*deadline) o.deadline_s = static_cast<long>(std::ceil(**deadline));
  auto insecure = config::flag(ctx, "allow-insecure-http");
  if (!insecure.ok()) return insecure.error();
  if (*insecure) o.allow_insecure_http = **insecure;
  return o;
}

}  // namespace extdeps::fetch
