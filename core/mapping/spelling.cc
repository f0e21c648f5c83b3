#include "core/mapping/spelling.h"

#include "core/declare/purl_types.h"
#include "core/util/text.h"

namespace extdeps::mapping {

namespace {

std::string_view type_of(std::string_view id) {
  if (id.rfind("dep:", 0) == 0) id.remove_prefix(4);
  return id.substr(0, id.find('/'));
}

}  // namespace

std::string_view base_id(std::string_view id) {
  for (std::size_t i = 0; i < id.size(); ++i)
    if (id[i] == '@' || id[i] == '?' || id[i] == '#') return id.substr(0, i);
  return id;
}

std::string spelling_key(std::string_view id) {
  std::string key = to_lower(base_id(id));
  const PurlType* type = purl_type(to_lower(type_of(id)));
  if (!type || !type->one_dash) return key;
  // PEP 503: runs of '-', '_' and '.' in the name are one '-'.
  const auto slash = key.rfind('/');
  return key.substr(0, slash + 1) + normalize_name(std::string_view(key).substr(slash + 1));
}

bool same_spelling(std::string_view candidate, std::string_view key) {
  if (const PurlType* type = purl_type_of(key); type && type->one_dash) return spelling_key(candidate) == key;
  candidate = base_id(candidate);
  if (candidate.size() != key.size()) return false;
  for (std::size_t i = 0; i < key.size(); ++i) {
    char c = candidate[i];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c != key[i]) return false;
  }
  return true;
}

bool type_folds_case(std::string_view id) {
  const PurlType* type = purl_type(to_lower(type_of(id)));
  return type && type->lowercase;
}

}  // namespace extdeps::mapping
