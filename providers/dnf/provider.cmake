# The dnf provider reads repomd.xml and primary.xml with libxml2, loaded with dlopen when first
# used (providers/dnf/libxml_api.h): its headers are needed, not its link (libxml2-dev).
pkg_check_modules(LIBXML2 REQUIRED libxml-2.0)
list(APPEND EXTDEPS_PROVIDER_INCLUDE_DIRS ${LIBXML2_INCLUDE_DIRS})
