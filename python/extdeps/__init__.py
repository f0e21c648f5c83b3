"""extdeps as a Python package: the `extdeps` program (bundled with the shared libraries it needs
and its mapping tables), and the build backend wrapper `extdeps_backend`.

    python -m extdeps resolve .        # the program, as `extdeps resolve .`
    extdeps.program()                  # its path, for build tools that run it themselves
"""

import os

__all__ = ["program", "__version__"]

_DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_data")


def program():
    """The path of the bundled extdeps program. FileNotFoundError where this copy of the package
    has none (a source tree that was never built as a wheel)."""
    path = os.path.join(_DATA, "bin", "extdeps")
    if not os.access(path, os.X_OK):
        raise FileNotFoundError("this extdeps package has no program at %s (install the extdeps wheel)" % path)
    return path


def _read_version():
    try:
        with open(os.path.join(_DATA, "VERSION")) as f:
            return f.read().strip()
    except OSError:
        return "unknown"


__version__ = _read_version()
