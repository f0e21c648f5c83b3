// placeholder until the pkgconf provider lands (being written in this session)
#include "providers/pkgconf/pkgconf_provider.h"
namespace extdeps::pkgconf {
std::unique_ptr<Provider> make_provider(const Context&) { return nullptr; }
}
