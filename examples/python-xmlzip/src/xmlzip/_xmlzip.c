/* xmlzip._xmlzip: libxml2 parses, zlib compresses. (zlib.h defines zlib_version as a macro:
 * the C functions are get_*.) */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <libxml/parser.h>
#include <libxml/xmlversion.h>
#include <zlib.h>

static long count_elements(xmlNodePtr node) {
  long n = 0;
  for (; node; node = node->next)
    if (node->type == XML_ELEMENT_NODE) n += 1 + count_elements(node->children);
  return n;
}

/* describe(data: bytes) -> (root: str, elements: int, compressed: int, crc32: int) */
static PyObject* describe(PyObject* self, PyObject* args) {
  (void)self;
  const char* data;
  Py_ssize_t size;
  if (!PyArg_ParseTuple(args, "y#", &data, &size)) return NULL;
  xmlDocPtr doc = xmlReadMemory(data, (int)size, "input.xml", NULL, XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
  if (!doc) {
    PyErr_SetString(PyExc_ValueError, "not well-formed XML");
    return NULL;
  }
  xmlNodePtr root = xmlDocGetRootElement(doc);
  PyObject* name = PyUnicode_FromString(root ? (const char*)root->name : "");
  long elements = count_elements(root);
  xmlFreeDoc(doc);
  if (!name) return NULL;

  uLongf bound = compressBound((uLong)size);
  Bytef* out = PyMem_Malloc(bound);
  if (!out) {
    Py_DECREF(name);
    return PyErr_NoMemory();
  }
  int rc = compress2(out, &bound, (const Bytef*)data, (uLong)size, Z_BEST_COMPRESSION);
  PyMem_Free(out);
  if (rc != Z_OK) {
    Py_DECREF(name);
    PyErr_Format(PyExc_RuntimeError, "zlib compress2 failed (%d)", rc);
    return NULL;
  }
  unsigned long crc = crc32(0L, (const Bytef*)data, (uInt)size);
  return Py_BuildValue("(Nlkk)", name, elements, (unsigned long)bound, crc);
}

static PyObject* get_libxml2_version(PyObject* self, PyObject* unused) {
  (void)self;
  (void)unused;
  return PyUnicode_FromString(LIBXML_DOTTED_VERSION);
}

static PyObject* get_zlib_version(PyObject* self, PyObject* unused) {
  (void)self;
  (void)unused;
  return PyUnicode_FromString(zlibVersion());
}

static PyMethodDef methods[] = {
    {"describe", describe, METH_VARARGS, "describe(data) -> (root, elements, compressed_size, crc32)"},
    {"libxml2_version", get_libxml2_version, METH_NOARGS, "the libxml2 this was built against"},
    {"zlib_version", get_zlib_version, METH_NOARGS, "the zlib it runs with"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "xmlzip._xmlzip", NULL, -1, methods,
                                    NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__xmlzip(void) {
  xmlInitParser();
  return PyModule_Create(&module);
}
