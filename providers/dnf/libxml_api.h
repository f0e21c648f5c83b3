// libxml2, loaded when a dnf repository's XML is first read, not when extdeps starts. libxml2
// and what it links (ICU, liblzma) were a tenth of a millisecond each of dynamic linking on every
// run, apt's and conda's too, which read no XML. So nothing links libxml2: primary.cc calls it
// through this table of the functions it uses, filled from libxml2.so.2 with dlopen (the
// pattern of core/fetch/curl_api.h, through core/util/lazy_library.h). <libxml/xmlreader.h> still
// gives the types.
#pragma once

#include <libxml/xmlreader.h>

#include "core/util/result.h"

namespace extdeps::dnf {

struct LibXml {
  decltype(&::xmlReaderForMemory) xmlReaderForMemory;
  decltype(&::xmlReaderForIO) xmlReaderForIO;
  decltype(&::xmlFreeTextReader) xmlFreeTextReader;
  decltype(&::xmlTextReaderRead) xmlTextReaderRead;
  decltype(&::xmlTextReaderNodeType) xmlTextReaderNodeType;
  decltype(&::xmlTextReaderConstLocalName) xmlTextReaderConstLocalName;
  decltype(&::xmlTextReaderConstValue) xmlTextReaderConstValue;
  decltype(&::xmlTextReaderGetAttribute) xmlTextReaderGetAttribute;
  decltype(&::xmlTextReaderReadString) xmlTextReaderReadString;
  decltype(&::xmlTextReaderGetParserLineNumber) xmlTextReaderGetParserLineNumber;
  // Frees what the reader returned to be freed (xmlFree: the library's own deallocator).
  void free(void* p) const;
  xmlFreeFunc* free_func_ = nullptr;  // libxml2's xmlFree variable
};

// Loads libxml2.so.2 once per process. An environment error naming the library and what dlopen
// said when it cannot be loaded or lacks a function; the same answer every later call.
Result<const LibXml*> load_libxml();

// The loaded functions: only for code that runs after load_libxml() succeeded.
const LibXml& libxml();

}  // namespace extdeps::dnf
