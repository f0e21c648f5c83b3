// The kinds of option values (core/provider/descriptor.h OptionKind): their names, and the one
// check every value of an option passes before anything reads it.
#include <charconv>
#include <cmath>
#include <cstdio>

#include "core/fetch/options.h"
#include "core/fetch/url.h"
#include "core/provider/descriptor.h"
#include "core/util/printable.h"

namespace extdeps {

namespace {

constexpr std::pair<OptionKind, std::string_view> kKindNames[] = {
    {OptionKind::text, "text"},       {OptionKind::choice, "choice"},
    {OptionKind::seconds, "seconds"}, {OptionKind::size, "size"},
    {OptionKind::flag, "flag"},       {OptionKind::path, "path"},
    {OptionKind::url, "url"},         {OptionKind::path_or_url, "path-or-url"},
};

std::string seconds_text(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.10g", s);
  return buf;
}

// What a value of the option must be, as the error says it ("1 or 0", "a number of seconds
// from 1 to 604800").
std::string expected_of(const ProviderOption& o) {
  switch (o.kind) {
    case OptionKind::choice: {
      std::string out;
      for (std::size_t i = 0; i < o.choices.size(); ++i)
        out += (i == 0 ? "" : i + 1 == o.choices.size() ? " or " : ", ") + std::string(o.choices[i]);
      return out;
    }
    case OptionKind::seconds:
      return "a number of seconds from " + seconds_text(o.min_seconds) + " to " + seconds_text(o.max_seconds);
    case OptionKind::size: return "a size such as 2G, 512M or 1048576";
    case OptionKind::flag: return "1 or 0";
    case OptionKind::path: return "a path";
    case OptionKind::url: return "an http://, https:// or file:// URL";
    case OptionKind::path_or_url: return "a file or an http://, https:// or file:// URL";
    case OptionKind::text: break;
  }
  return "a value";
}

}  // namespace

std::string_view option_kind_name(OptionKind kind) {
  for (const auto& [k, name] : kKindNames)
    if (k == kind) return name;
  return "text";
}

std::optional<OptionKind> option_kind_named(std::string_view name) {
  for (const auto& [k, n] : kKindNames)
    if (n == name) return k;
  return std::nullopt;
}

std::optional<double> parse_seconds(std::string_view text) {
  double s = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), s, std::chars_format::fixed);
  if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(s)) return std::nullopt;
  return s;
}

std::optional<bool> parse_flag(std::string_view text) {
  if (text == "1" || text == "true" || text == "yes") return true;
  if (text == "0" || text == "false" || text == "no") return false;
  return std::nullopt;
}

Result<void> check_option_value(const ProviderOption& o, OptionValue& value, std::string_view base) {
  for (std::string& v : value.values) {
    bool good = !v.empty();
    switch (o.kind) {
      case OptionKind::text: break;
      case OptionKind::choice:
        good = false;
        for (std::string_view c : o.choices) good = good || c == v;
        break;
      case OptionKind::seconds: {
        auto s = parse_seconds(v);
        good = s && *s >= o.min_seconds && *s <= o.max_seconds;
        break;
      }
      case OptionKind::size: {
        auto n = fetch::parse_size(v);
        good = n.has_value();
        if (good) v = std::to_string(*n);
        break;
      }
      case OptionKind::flag: {
        auto b = parse_flag(v);
        good = b.has_value();
        if (good) v = *b ? "1" : "0";
        break;
      }
      case OptionKind::url: good = fetch::is_url(v); break;
      case OptionKind::path:
      case OptionKind::path_or_url:
        // A relative path a configuration file gives is relative to that file, as mapping-dirs.
        if (good && !base.empty() && v.front() != '/' && !fetch::is_url(v)) v = std::string(base) + "/" + v;
        break;
    }
    if (!good) {
      const std::string expected = expected_of(o);
      const std::string shown = printable_text(v);
      Error e = worded(ExitCode::bad_input, value.from + ": expected " + expected + ", got '" + shown + "'", value.from,
                       "bad value '" + shown + "' for " + std::string(o.name), expected);
      e.from = value.from;
      return e;
    }
  }
  return {};
}

}  // namespace extdeps
