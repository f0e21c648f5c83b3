"""The extdeps wheel (pyproject.toml, setup.py, scripts/wheel_policy.py): made from the sdist of
this checkout, installed with pip into a fresh venv, and used by pip's isolated build of a project
whose `build-system.requires` lists extdeps.

Offline: pip finds extdeps in the folder this test wrote it to and setuptools and wheel in
/usr/share/python-wheels (Debian's python3-setuptools-whl, python3-wheel-whl). The environment
(tests/hooks/CMakeLists.txt): EXTDEPS_SOURCE_DIR (this checkout), EXTDEPS_BIN (the program this
tree built, which setup.py packs as it is through EXTDEPS_PROGRAM: not compiled twice, and no
build tree touched while other tests run), EXTDEPS_WHEEL_DIST (where the wheel is left: CI
installs it in a clean root, .ci/wheel-in-root).
"""

import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import textwrap
import unittest
import zipfile

SOURCE = os.environ["EXTDEPS_SOURCE_DIR"]
DIST = os.environ["EXTDEPS_WHEEL_DIST"]
BUILT_PROGRAM = os.environ["EXTDEPS_BIN"]
SYSTEM_WHEELS = "/usr/share/python-wheels"
sys.path.insert(0, os.path.join(SOURCE, "scripts"))
import wheel_policy  # noqa: E402


def cmake_version():
    with open(os.path.join(SOURCE, "CMakeLists.txt")) as f:
        return re.search(r"project\(extdeps VERSION ([0-9.]+)", f.read()).group(1)


def run(argv, env=None, cwd=None):
    e = dict(os.environ, PIP_DISABLE_PIP_VERSION_CHECK="1", PIP_NO_INPUT="1")
    for k, v in (env or {}).items():
        if v is None:
            e.pop(k, None)
        else:
            e[k] = v
    return subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          universal_newlines=True, env=e, cwd=cwd)


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(textwrap.dedent(text).lstrip("\n"))


def dpkg_installed(package):
    r = subprocess.run(["dpkg-query", "-W", "-f", "${db:Status-Status}", package],
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, universal_newlines=True)
    return r.returncode == 0 and r.stdout == "installed"


def sdist_files(dest):
    """What the sdist's MANIFEST.in names, copied from the checkout (the sdist is made from the
    copy: the build writes its folders into the tree it builds)."""
    for name in ("CMakeLists.txt", "README.md", "pyproject.toml", "setup.py", "setup.cfg", "MANIFEST.in"):
        shutil.copy(os.path.join(SOURCE, name), dest)
    for name in ("core", "providers", "cmake", "mappings", "schema", "hooks", "python"):
        shutil.copytree(os.path.join(SOURCE, name), os.path.join(dest, name),
                        ignore=shutil.ignore_patterns("__pycache__", "build", "*.egg-info"))
    os.makedirs(os.path.join(dest, "scripts"))
    shutil.copy(os.path.join(SOURCE, "scripts", "wheel_policy.py"), os.path.join(dest, "scripts"))


class ExtdepsWheel(unittest.TestCase):
    """Made once for the class: the sdist of the checkout, then the wheel from the sdist."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="extdeps-wheel-")
        tree = os.path.join(cls.tmp, "src")
        os.makedirs(tree)
        sdist_files(tree)
        sdists = os.path.join(cls.tmp, "sdist")
        r = run([sys.executable, "-m", "build", "--sdist", "--no-isolation", "--outdir", sdists, tree])
        if r.returncode != 0:
            raise AssertionError("the extdeps sdist was not made:\n" + r.stdout)
        cls.sdist = os.path.join(sdists, "extdeps-%s.tar.gz" % cmake_version())
        os.makedirs(DIST, exist_ok=True)
        for old in os.listdir(DIST):
            if old.startswith("extdeps-") and old.endswith(".whl"):
                os.remove(os.path.join(DIST, old))
        r = run([sys.executable, "-m", "pip", "wheel", "--no-build-isolation", "--no-deps", "--no-index",
                 "-w", DIST, cls.sdist], env={"EXTDEPS_PROGRAM": BUILT_PROGRAM})
        cls.build_log = r.stdout
        if r.returncode != 0:
            raise AssertionError("the extdeps wheel was not built from its sdist:\n" + r.stdout)
        wheels = [w for w in os.listdir(DIST) if w.startswith("extdeps-") and w.endswith(".whl")]
        assert len(wheels) == 1, wheels
        cls.wheel = os.path.join(DIST, wheels[0])
        cls.unpacked = os.path.join(cls.tmp, "unpacked")
        with zipfile.ZipFile(cls.wheel) as z:
            z.extractall(cls.unpacked)
        # A fresh venv with the wheel installed by pip, as a user would.
        cls.venv = os.path.join(cls.tmp, "venv")
        subprocess.run([sys.executable, "-m", "venv", cls.venv], check=True)
        r = run([os.path.join(cls.venv, "bin", "pip"), "install", "--no-index", cls.wheel])
        if r.returncode != 0:
            raise AssertionError("pip install of the extdeps wheel failed:\n" + r.stdout)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, True)

    def test_the_sdist_holds_what_the_wheel_is_built_from(self):
        with tarfile.open(self.sdist) as t:
            names = set(t.getnames())
        top = "extdeps-%s/" % cmake_version()
        for name in ("CMakeLists.txt", "setup.py", "scripts/wheel_policy.py", "hooks/python/extdeps_backend.py",
                     "mappings/debian.toml", "core/main.cc", "providers/apt", "python/extdeps/__init__.py"):
            self.assertIn(top + name, names)
        self.assertFalse([n for n in names if "/tests/" in n or n.endswith(".pyc")])

    def test_the_wheel_holds_the_program_its_libraries_tables_and_the_hook(self):
        with zipfile.ZipFile(self.wheel) as z:
            names = set(z.namelist())
            metadata = z.read("extdeps-%s.dist-info/METADATA" % cmake_version()).decode()
            entry_points = z.read("extdeps-%s.dist-info/entry_points.txt" % cmake_version()).decode()
        for name in ("extdeps/_data/bin/extdeps", "extdeps/_data/lib/libsolv.so.1",
                     "extdeps/_data/lib/libtomlplusplus.so.3", "extdeps/_data/share/extdeps/mappings/debian.toml",
                     "extdeps/_data/share/extdeps/mappings/conda-forge.toml", "extdeps/__main__.py",
                     "extdeps_backend.py"):
            self.assertIn(name, names)
        # glibc's own libraries and libstdc++ come from the system, as the policy allows.
        self.assertFalse([n for n in names if re.search(r"/lib(c|m|stdc\+\+|gcc_s)\.so", n)])
        self.assertIn("Version: %s" % cmake_version(), metadata)
        self.assertNotIn("Metadata-Version: 2.6", metadata)
        self.assertIn("extdeps = extdeps.__main__:main", entry_points)
        if shutil.which("twine"):
            r = run(["twine", "check", "--strict", self.wheel])
            self.assertEqual(r.returncode, 0, r.stdout)

    def test_the_platform_tag_is_the_one_its_files_are_consistent_with(self):
        tag = os.path.basename(self.wheel)[:-len(".whl")].split("-")[-1]
        files = [os.path.join(d, f) for d, _, fs in os.walk(self.unpacked) for f in fs
                 if wheel_policy.is_elf(os.path.join(d, f))]
        self.assertGreater(len(files), 5)
        verdict, reasons = wheel_policy.platform_tag(files)
        self.assertEqual(tag, verdict, reasons)
        self.assertTrue(tag.startswith("manylinux_2_"), reasons)
        # Read independently of the script: no file asks a system library for a newer glibc.
        level = int(tag.split("_")[2])
        for f in files:
            out = subprocess.run(["readelf", "-V", "-W", f], stdout=subprocess.PIPE, universal_newlines=True).stdout
            for minor in re.findall(r"Name: GLIBC_2\.([0-9]+)", out):
                self.assertLessEqual(int(minor), level, f)

    def test_the_policy_refuses_a_program_whose_libraries_are_not_bundled(self):
        # The program as CMake built it: it links libsolv and the rest from the system.
        alone = os.path.join(self.tmp, "alone")
        os.makedirs(alone, exist_ok=True)
        os.symlink(BUILT_PROGRAM, os.path.join(alone, "extdeps"))
        r = run([sys.executable, os.path.join(SOURCE, "scripts", "wheel_policy.py"), alone])
        self.assertEqual(r.returncode, 1, r.stdout)
        self.assertIn(": linux_x86_64" if os.uname().machine == "x86_64" else ": linux_", r.stdout)
        self.assertIn("extdeps needs libsolv.so.1, which is neither bundled nor allowed from the system", r.stdout)

    def test_the_installed_program_loads_only_its_own_copies_of_the_libraries(self):
        program = os.path.join(self.venv, "lib", "python%d.%d" % sys.version_info[:2], "site-packages",
                               "extdeps", "_data", "bin", "extdeps")
        out = run(["ldd", program]).stdout
        ours = os.path.dirname(os.path.dirname(program))
        for soname in ("libsolv.so.1", "libpkgconf.so.3", "libyaml-cpp.so.0.7", "libre2.so.9", "libtomlplusplus.so.3"):
            m = re.search(r"%s => (\S+)" % re.escape(soname), out)
            self.assertTrue(m, out)
            self.assertTrue(os.path.realpath(m.group(1)).startswith(os.path.realpath(ours)), out)

    def test_the_console_script_and_python_m_run_the_program(self):
        for argv in ([os.path.join(self.venv, "bin", "extdeps"), "--version"],
                     [os.path.join(self.venv, "bin", "python"), "-m", "extdeps", "--version"]):
            r = run(argv, env={"PATH": "/usr/bin:/bin"})
            self.assertEqual(r.returncode, 0, r.stdout)
            self.assertEqual(r.stdout.strip(), "extdeps %s" % cmake_version())

    def test_the_installed_program_plans_as_the_built_one_with_its_own_tables(self):
        # Its tables are the ones beside it (no EXTDEPS_MAPPINGS_DIR, no installed tree), so its
        # plan for an example is the built program's, which reads the checkout's.
        args = ["resolve", os.path.join(SOURCE, "examples", "cmake-xml"), "--manager", "apt", "--json"]
        env = {"EXTDEPS_MAPPINGS_DIR": None, "XDG_CACHE_HOME": os.path.join(self.tmp, "cache"),
               "PATH": "/usr/bin:/bin"}
        ours = run([os.path.join(self.venv, "bin", "extdeps")] + args, env=env)
        built = run([BUILT_PROGRAM] + args, env=env)
        self.assertIn(ours.returncode, (0, 1), ours.stdout)
        self.assertEqual(ours.returncode, built.returncode, ours.stdout)
        self.assertEqual(ours.stdout, built.stdout)
        self.assertIn('"dep:generic/libxml2"', ours.stdout)


ZLIB_EXT = """
    #define PY_SSIZE_T_CLEAN
    #include <Python.h>
    #include <zlib.h>
    static PyObject* crc(PyObject* self, PyObject* args) {
      const char* data; Py_ssize_t n;
      if (!PyArg_ParseTuple(args, "y#", &data, &n)) return NULL;
      return PyLong_FromUnsignedLong(crc32(0L, (const Bytef*)data, (uInt)n));
    }
    static PyMethodDef methods[] = {{"crc", crc, METH_VARARGS, NULL}, {NULL, NULL, 0, NULL}};
    static struct PyModuleDef mod = {PyModuleDef_HEAD_INIT, "zcrc", NULL, -1, methods, NULL, NULL, NULL, NULL};
    PyMODINIT_FUNC PyInit_zcrc(void) { return PyModule_Create(&mod); }
    """


class IsolatedBuild(unittest.TestCase):
    """pip's isolated build of a project that lists extdeps in build-system.requires: pip installs
    the extdeps wheel into the build environment, and the hook runs the program that came with it
    (no EXTDEPS_BIN, no extdeps on PATH)."""

    @classmethod
    def setUpClass(cls):
        if not all(any(w.startswith(p) for w in os.listdir(SYSTEM_WHEELS)) for p in ("setuptools-", "wheel-")) \
                if os.path.isdir(SYSTEM_WHEELS) else True:
            raise unittest.SkipTest("%s lacks setuptools or wheel (Debian: python3-setuptools-whl, "
                                    "python3-wheel-whl)" % SYSTEM_WHEELS)
        wheels = [w for w in os.listdir(DIST) if w.startswith("extdeps-") and w.endswith(".whl")] \
            if os.path.isdir(DIST) else []
        if len(wheels) != 1:
            raise AssertionError("ExtdepsWheel did not leave one extdeps wheel in %s: %s" % (DIST, wheels))

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="extdeps-isolated-")
        self.addCleanup(shutil.rmtree, self.tmp, True)
        self.out = os.path.join(self.tmp, "out")

    def project(self, name, host_requires):
        root = os.path.join(self.tmp, name)
        write(os.path.join(root, "pyproject.toml"), """
            [build-system]
            requires = ["extdeps", "setuptools>=61"]
            build-backend = "extdeps_backend"

            [project]
            name = "%s"
            version = "1.0.0"
            readme = "README.md"

            [external]
            build-requires = ["dep:virtual/compiler/c"]
            host-requires = %s
            dependencies = ["dep:generic/zlib"]

            [tool.extdeps]
            build-backend = "setuptools.build_meta"
            extdeps-required = true
            """ % (name, host_requires))
        write(os.path.join(root, "README.md"), "# %s\n\nCRC-32 through zlib.\n" % name)
        write(os.path.join(root, "zcrc.c"), ZLIB_EXT)
        write(os.path.join(root, "setup.py"), """
            import sys
            from setuptools import Extension, setup
            if 'bdist_wheel' in sys.argv:
                open(__file__ + '.ran', 'w').close()
            setup(ext_modules=[Extension("zcrc", ["zcrc.c"], libraries=["z"])])
            """)
        return root

    def offline(self):
        """pip and build use only the two folders; extdeps is nowhere else to be found."""
        return {"PIP_NO_INDEX": "1", "PIP_FIND_LINKS": "%s %s" % (DIST, SYSTEM_WHEELS),
                "EXTDEPS_BIN": None, "PATH": "/usr/bin:/bin", "XDG_CACHE_HOME": os.path.join(self.tmp, "cache")}

    def pip_wheel(self, project):
        return run([sys.executable, "-m", "pip", "wheel", "-v", "--no-deps", "-w", self.out, project],
                   env=self.offline())

    def test_met_needs_build_a_wheel_twine_accepts(self):
        p = self.project("zcrc-isolated", '["dep:generic/zlib@>=1.2"]')
        r = self.pip_wheel(p)
        self.assertEqual(r.returncode, 0, r.stdout)
        self.assertIn("Processing %s" % DIST, r.stdout)  # extdeps came from the wheel folder
        self.assertNotIn("extdeps is not on PATH", r.stdout)
        self.assertTrue(os.path.exists(os.path.join(p, "setup.py.ran")))
        wheels = [os.path.join(self.out, w) for w in os.listdir(self.out) if w.startswith("zcrc_isolated")]
        self.assertEqual(len(wheels), 1, r.stdout)
        with zipfile.ZipFile(wheels[0]) as z:
            metadata = z.read("zcrc_isolated-1.0.0.dist-info/METADATA").decode()
        self.assertNotIn("Requires-External-Dep", metadata)
        if shutil.which("twine"):
            t = run(["twine", "check", "--strict", wheels[0]])
            self.assertEqual(t.returncode, 0, t.stdout)

    def test_a_missing_need_stops_before_compiling_with_the_install_command(self):
        # libtiff-dev: in bookworm's index, not installed by scripts/install-deps.sh.
        if dpkg_installed("libtiff-dev"):
            self.skipTest("libtiff-dev is installed here; the test needs a need that is not met")
        if not os.path.isdir("/var/lib/apt/lists") or not [f for f in os.listdir("/var/lib/apt/lists")
                                                             if f.endswith("_Packages") or "_Packages." in f]:
            self.skipTest("no apt lists here (apt-get update has not run)")
        p = self.project("tiffy", '["dep:generic/zlib", "dep:generic/libtiff"]')
        r = self.pip_wheel(p)
        self.assertNotEqual(r.returncode, 0, r.stdout)
        self.assertIn("libtiff-dev=", r.stdout)
        self.assertRegex(r.stdout, r"apt-get install -y --no-install-recommends -o DPkg::Lock::Timeout=300 -- [^\n]*libtiff-dev=")
        self.assertIn("extdeps_backend: the build stopped before it began", r.stdout)
        self.assertFalse(os.path.exists(os.path.join(p, "setup.py.ran")), "setuptools must not have run")

    def test_an_sdist_is_made_where_a_need_is_missing(self):
        p = self.project("tiffy", '["dep:generic/zlib", "dep:generic/libtiff@>=99"]')
        r = run([sys.executable, "-m", "build", "--sdist", "--outdir", self.out, p], env=self.offline())
        self.assertEqual(r.returncode, 0, r.stdout)
        self.assertEqual(os.listdir(self.out), ["tiffy-1.0.0.tar.gz"])


if __name__ == "__main__":
    unittest.main()
