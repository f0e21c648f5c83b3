#include "core/fetch/options.h"

#include <CLI/CLI.hpp>
#include <cctype>
#include <charconv>
#include <cstdint>
#include <utility>

#include "core/config/command_options.h"

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

namespace {

// "EXTDEPS_OFFLINE: expected 1 or 0, got 'maybe'", blamed on where the value came from: the
// variable, or the configuration file's key or flag that set it.
Error bad_setting(const Context& ctx, std::string_view name, const std::string& value, const std::string& expected) {
  std::string origin = ctx.env_origin(name);
  Error e = bad_input(origin + ": expected " + expected + ", got '" + value + "'");
  e.place = origin;
  e.what = "bad value '" + value + "'";
  e.expected = expected;
  e.from = origin;
  return e;
}

}  // namespace

Result<Options> options_for(Context& ctx, const FetchFlags& flags) {
  if (!flags.cache_dir.empty()) ctx.set_cache_dir(flags.cache_dir);
  Options o;
  if (ctx.cache_enabled()) o.cache_dir = ctx.cache_dir() + "/http";
  o.offline = flags.offline;
  if (auto v = ctx.env("EXTDEPS_OFFLINE"); v && !v->empty() && !o.offline) {
    if (*v == "1" || *v == "true" || *v == "yes") o.offline = true;
    else if (*v != "0" && *v != "false" && *v != "no") return bad_setting(ctx, "EXTDEPS_OFFLINE", *v, "1 or 0");
  }
  o.progress = flags.stderr_is_terminal || ctx.stderr_is_terminal();
  if (flags.max_download_bytes) o.max_download_bytes = *flags.max_download_bytes;
  if (flags.max_run_bytes) o.max_run_bytes = *flags.max_run_bytes;
  if (flags.allow_insecure_http) o.allow_insecure_http = *flags.allow_insecure_http;
  for (auto [name, field] : {std::pair{"EXTDEPS_MAX_DOWNLOAD_SIZE", &o.max_download_bytes},
                             std::pair{"EXTDEPS_MAX_DOWNLOAD_TOTAL", &o.max_run_bytes}}) {
    auto v = ctx.env(name);
    if (!v || v->empty()) continue;
    auto size = parse_size(*v);
    if (!size) return bad_setting(ctx, name, *v, "a size such as 2G, 512M or 1048576");
    *field = *size;
  }
  if (auto v = ctx.env("EXTDEPS_DOWNLOAD_DEADLINE"); v && !v->empty()) {
    long seconds = 0;
    auto [end, ec] = std::from_chars(v->data(), v->data() + v->size(), seconds);
    if (ec != std::errc() || end != v->data() + v->size() || seconds < 1 || seconds > 604800)
      return bad_setting(ctx, "EXTDEPS_DOWNLOAD_DEADLINE", *v, "a number of seconds from 1 to 604800");
    o.deadline_s = seconds;
  }
  if (auto v = ctx.env("EXTDEPS_ALLOW_INSECURE_HTTP"); v && !v->empty()) {
    if (*v == "1" || *v == "true" || *v == "yes") o.allow_insecure_http = true;
    else if (*v == "0" || *v == "false" || *v == "no") o.allow_insecure_http = false;
    else return bad_setting(ctx, "EXTDEPS_ALLOW_INSECURE_HTTP", *v, "1 or 0");
  }
  return o;
}

}  // namespace extdeps::fetch
