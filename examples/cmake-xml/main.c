/* xmlsum FILE...: for each XML document (plain, or gzip-compressed: libxml2 inflates it with
 * zlib), its root element, how many elements it has, and the SHA-256 (OpenSSL) and CRC-32 (zlib)
 * of its canonical form, so that two spellings of one document give the same sums. Exit 1 when a
 * file is not well-formed XML, 2 for usage. */
#include <libxml/c14n.h>
#include <libxml/parser.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <string.h>
#include <zlib.h>

static long count_elements(xmlNodePtr node) {
  long n = 0;
  for (; node; node = node->next)
    if (node->type == XML_ELEMENT_NODE) n += 1 + count_elements(node->children);
  return n;
}

static int sum_file(const char* path) {
  xmlDocPtr doc = xmlReadFile(path, NULL, XML_PARSE_NONET | XML_PARSE_NOBLANKS);
  if (!doc) {
    fprintf(stderr, "xmlsum: %s: not well-formed XML\n", path);
    return 1;
  }
  xmlNodePtr root = xmlDocGetRootElement(doc);
  xmlChar* canonical = NULL;
  int len = xmlC14NDocDumpMemory(doc, NULL, XML_C14N_1_0, NULL, 0, &canonical);
  if (len < 0) {
    fprintf(stderr, "xmlsum: %s: cannot be put in canonical form\n", path);
    xmlFreeDoc(doc);
    return 1;
  }
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int mdlen = 0;
  EVP_Digest(canonical, (size_t)len, md, &mdlen, EVP_sha256(), NULL);
  const char* slash = strrchr(path, '/');
  printf("%s: root %s, %ld elements, sha256 ", slash ? slash + 1 : path,
         root ? (const char*)root->name : "(none)", count_elements(root));
  for (unsigned i = 0; i < mdlen; ++i) printf("%02x", md[i]);
  printf(", crc32 %08lx\n", crc32(0L, canonical, (uInt)len));
  xmlFree(canonical);
  xmlFreeDoc(doc);
  return 0;
}

int main(int argc, char** argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: xmlsum FILE.xml...\n");
    return 2;
  }
  xmlInitParser();
  int rc = 0;
  for (int i = 1; i < argc; ++i)
    if (sum_file(argv[i]) != 0) rc = 1;
  xmlCleanupParser();
  return rc;
}
