// placeholder until the apt provider lands (being written in this session)
#include "providers/apt/apt_provider.h"
namespace extdeps::apt {
std::unique_ptr<Provider> make_provider(const Context&) { return nullptr; }
}
