// What libextdeps.so exports: the library is built with hidden visibility, and only what is
// marked EXTDEPS_API is part of its ABI.
#pragma once

#if defined(__GNUC__)
#define EXTDEPS_API __attribute__((visibility("default")))
#else
#define EXTDEPS_API
#endif
