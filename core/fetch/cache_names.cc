#include "core/fetch/cache_names.h"

#include "core/util/sealed_file.h"

namespace extdeps::cache_names {

bool hex_json_file(std::string_view name, std::string_view temp) {
  if (name.size() < 21 || name.substr(0, 16).find_first_not_of("0123456789abcdef") != std::string_view::npos ||
      name.substr(16, 5) != ".json")
    return false;
  std::string_view rest = name.substr(21);
  return rest.empty() || (rest.starts_with(temp) && rest.size() > temp.size() &&
                          rest.substr(temp.size()).find_first_not_of("0123456789") == std::string_view::npos);
}

bool sealed_hex_file(const std::string& path, std::string_view name, std::string_view suffix, std::string_view kind) {
  return name.size() == 16 + suffix.size() && name.ends_with(suffix) &&
         name.substr(0, 16).find_first_not_of("0123456789abcdef") == std::string_view::npos &&
         sealed::looks_sealed(path, kind);
}

}  // namespace extdeps::cache_names
