#include "providers/dnf/libxml_api.h"

#include <mutex>
#include <optional>
#include <string>

#include "core/util/lazy_library.h"

namespace extdeps::dnf {

namespace {

std::optional<Error> g_error;  // why loading failed; none when it did not
LibXml g_api{};

void load_once() {
  LibXml a{};
  auto slot = [](auto& f) { return reinterpret_cast<void**>(&f); };
  auto r = lazy::load("libxml2.so.2", "libxml2", "reading dnf repositories",
                      {{"xmlReaderForMemory", slot(a.xmlReaderForMemory)},
                       {"xmlReaderForIO", slot(a.xmlReaderForIO)},
                       {"xmlFreeTextReader", slot(a.xmlFreeTextReader)},
                       {"xmlTextReaderRead", slot(a.xmlTextReaderRead)},
                       {"xmlTextReaderNodeType", slot(a.xmlTextReaderNodeType)},
                       {"xmlTextReaderConstLocalName", slot(a.xmlTextReaderConstLocalName)},
                       {"xmlTextReaderConstValue", slot(a.xmlTextReaderConstValue)},
                       {"xmlTextReaderGetAttribute", slot(a.xmlTextReaderGetAttribute)},
                       {"xmlTextReaderReadString", slot(a.xmlTextReaderReadString)},
                       {"xmlTextReaderGetParserLineNumber", slot(a.xmlTextReaderGetParserLineNumber)},
                       {"xmlFree", slot(a.free_func_)}});
  if (!r.ok()) {
    g_error = r.error();
    return;
  }
  g_api = a;
}

}  // namespace

void LibXml::free(void* p) const {
  if (p) (*free_func_)(p);
}

Result<const LibXml*> load_libxml() {
  static std::once_flag once;
  std::call_once(once, load_once);
  if (g_error) return *g_error;
  return &g_api;
}

const LibXml& libxml() { return g_api; }

}  // namespace extdeps::dnf
