#include "core/util/toml_once.h"

#include <mutex>

namespace extdeps {

std::shared_ptr<const toml::table> parse_toml_once(std::string_view text, const std::string& path) {
  static std::mutex mutex;
  static std::string last_path, last_text;
  static std::shared_ptr<const toml::table> last;
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (last && last_path == path && last_text == text) return last;
  }
  auto doc = std::make_shared<const toml::table>(toml::parse(text, path));
  std::lock_guard<std::mutex> lock(mutex);
  last_path = path;
  last_text.assign(text);
  last = doc;
  return doc;
}

}  // namespace extdeps
