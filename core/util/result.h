// Result<T> and Error are part of the public API (core/include/extdeps/result.h); the library's
// own code keeps including them from here.
#pragma once

#include "extdeps/result.h"
