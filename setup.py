"""Builds the extdeps wheel: the program (CMake), the shared libraries it needs that a manylinux
wheel may not take from the system (copied beside it, RUNPATH $ORIGIN/../lib), its mapping
tables, the `extdeps` Python package and the `extdeps_backend` build hook, under the platform
tag the files are consistent with (scripts/wheel_policy.py; `linux_*` when none is).

Where the program comes from:
  EXTDEPS_BUILD_DIR=DIR  an already configured CMake build tree of this source: its `extdeps`
                         target is brought up to date there (`cmake --build DIR --target extdeps`)
                         and packed; CI and the tests use the tree they built.
  EXTDEPS_PROGRAM=FILE   a program already built from this source, packed as it is (nothing
                         is built; the tests use it, so that no build tree is touched while
                         other tests run from it).
  (neither)              a Release build of its own in build/wheel/cmake (Ninja when there is one),
                         tests off: 14 minutes of CPU (measured on 2 cores: 23 minutes
                         beside other work).
Needs: cmake, a C++20 compiler, extdeps' -dev packages (scripts/install-deps.sh), patchelf,
readelf (binutils), strip.
"""

import os
import re
import shutil
import subprocess
import sys

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "scripts"))
import wheel_policy  # noqa: E402

try:
    from wheel.bdist_wheel import bdist_wheel
except ImportError:  # setuptools >= 70.1 carries its own
    from setuptools.command.bdist_wheel import bdist_wheel


def project_version():
    with open(os.path.join(HERE, "CMakeLists.txt")) as f:
        m = re.search(r"project\(extdeps VERSION ([0-9.]+)", f.read())
    if not m:
        raise SystemExit("setup.py: CMakeLists.txt has no `project(extdeps VERSION X.Y.Z` line")
    return m.group(1)


def run(argv):
    print("setup.py: " + " ".join(argv), flush=True)
    subprocess.run(argv, check=True)


def built_program(build_base):
    """The extdeps program, built or brought up to date; its path."""
    program = os.environ.get("EXTDEPS_PROGRAM")
    if program:
        if not (os.path.isfile(program) and os.access(program, os.X_OK)):
            raise SystemExit("setup.py: EXTDEPS_PROGRAM=%s is not an executable file" % program)
        print("setup.py: packing %s as it is (EXTDEPS_PROGRAM)" % program, flush=True)
        return program
    given = os.environ.get("EXTDEPS_BUILD_DIR")
    if given:
        if not os.path.isfile(os.path.join(given, "CMakeCache.txt")):
            raise SystemExit("setup.py: EXTDEPS_BUILD_DIR=%s is not a configured CMake build tree" % given)
        tree = given
    else:
        tree = os.path.join(os.path.abspath(build_base), "cmake")
        if not os.path.isfile(os.path.join(tree, "CMakeCache.txt")):
            generator = ["-G", "Ninja"] if shutil.which("ninja") else []
            run(["cmake", "-S", HERE, "-B", tree, *generator, "-DCMAKE_BUILD_TYPE=Release",
                 "-DEXTDEPS_TESTS=OFF"])
    run(["cmake", "--build", tree, "--target", "extdeps", "--parallel", str(os.cpu_count() or 2)])
    return os.path.join(tree, "extdeps")


class BinaryDistribution(Distribution):
    def has_ext_modules(self):
        return True  # platlib, and a platform tag: the wheel holds a native program


class BuildPy(build_py):
    """The pure-Python parts, then _data/: bin/extdeps, lib/, share/extdeps/mappings, VERSION."""

    def run(self):
        super().run()
        build_base = self.get_finalized_command("build").build_base
        data = os.path.join(self.build_lib, "extdeps", "_data")
        shutil.rmtree(data, ignore_errors=True)
        os.makedirs(os.path.join(data, "bin"))
        program = os.path.join(data, "bin", "extdeps")
        shutil.copyfile(built_program(build_base), program)
        os.chmod(program, 0o755)
        run(["strip", "--strip-unneeded", program])  # debug info stays in the build tree
        libs = wheel_policy.bundle(program, os.path.join(data, "lib"))
        tag, reasons = wheel_policy.platform_tag([program] + libs)
        for r in reasons[-1:]:
            print("setup.py: %s" % r)
        print("setup.py: the program and %d bundled libraries are consistent with %s" % (len(libs), tag))
        mappings = os.path.join(data, "share", "extdeps", "mappings")
        shutil.copytree(os.path.join(HERE, "mappings"), mappings,
                        ignore=lambda d, names: [n for n in names if not n.endswith(".toml")
                                                 and not os.path.isdir(os.path.join(d, n))])
        with open(os.path.join(data, "VERSION"), "w") as f:
            f.write(project_version() + "\n")
        with open(os.path.join(data, "PLATFORM"), "w") as f:
            f.write(tag + "\n")
        shutil.copyfile(os.path.join(HERE, "hooks", "python", "extdeps_backend.py"),
                        os.path.join(self.build_lib, "extdeps_backend.py"))


class BdistWheel(bdist_wheel):
    def finalize_options(self):
        super().finalize_options()
        self.root_is_pure = False

    def get_tag(self):
        build_lib = self.get_finalized_command("build").build_lib
        with open(os.path.join(build_lib, "extdeps", "_data", "PLATFORM")) as f:
            platform = f.read().strip()
        return "py3", "none", platform


setup(
    version=project_version(),
    distclass=BinaryDistribution,
    cmdclass={"build_py": BuildPy, "bdist_wheel": BdistWheel},
)
