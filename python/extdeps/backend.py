"""`build-backend = "extdeps.backend"`: the same module as `extdeps_backend`, under the package's
name (either name works where the extdeps wheel is installed)."""

import sys

import extdeps_backend

sys.modules[__name__] = extdeps_backend
