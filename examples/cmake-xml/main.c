/* xmlsum: prints the root element of an XML file and the SHA-256 of its bytes. */
#include <libxml/parser.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <zlib.h>

int main(int argc, char** argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: xmlsum FILE.xml\n");
    return 2;
  }
  xmlDocPtr doc = xmlReadFile(argv[1], NULL, 0);
  if (!doc) return 1;
  xmlNodePtr root = xmlDocGetRootElement(doc);
  xmlChar* text = NULL;
  int len = 0;
  xmlDocDumpMemory(doc, &text, &len);
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int mdlen = 0;
  EVP_Digest(text, (size_t)len, md, &mdlen, EVP_sha256(), NULL);
  printf("root: %s\nsha256: ", root ? (const char*)root->name : "(none)");
  for (unsigned i = 0; i < mdlen; ++i) printf("%02x", md[i]);
  printf("\ncrc32: %08lx\n", crc32(0L, text, (uInt)len));
  xmlFree(text);
  xmlFreeDoc(doc);
  return 0;
}
