"""The Python build hook (hooks/python/extdeps_backend.py), run by this machine's own python3.

pip builds real projects through it, offline (--no-build-isolation --no-deps --no-index): C
extensions compiled by the machine's compiler against real libraries. The environment:
EXTDEPS_BIN (the extdeps program under test) and EXTDEPS_SOURCE_DIR (this checkout); CTest sets
both (tests/hooks/CMakeLists.txt). The one fake is `conda` (not to be had on this machine): a
small program that installs a package into a conda environment the way conda does, by unpacking
its files and writing its conda-meta record.
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
import unittest
import zipfile
import zlib

SOURCE = os.environ["EXTDEPS_SOURCE_DIR"]
EXTDEPS = os.environ["EXTDEPS_BIN"]


def compiled_in(provider):
    """Whether the extdeps under test was built with `provider` (EXTDEPS_PROVIDER_<NAME>)."""
    r = subprocess.run([EXTDEPS, "providers", "--json"], capture_output=True, text=True, check=True)
    return any(d["name"] == provider for d in json.loads(r.stdout))
HOOK_DIR = os.path.join(SOURCE, "hooks", "python")
GREET_ID = "dep:generic/extdeps-test-greet"


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(textwrap.dedent(text).lstrip("\n"))


def make_project(root, name, external, setup_py, sources, tool="", backend="extdeps_backend"):
    """A project whose backend is the hook (an in-tree copy, through backend-path)."""
    os.makedirs(os.path.join(root, "_extdeps"))
    shutil.copy(os.path.join(HOOK_DIR, "extdeps_backend.py"), os.path.join(root, "_extdeps"))
    pyproject = "\n".join([
        "[build-system]",
        'requires = ["setuptools"]',
        'build-backend = "%s"' % backend,
        'backend-path = ["_extdeps"]' if backend == "extdeps_backend" else "",
        "",
        "[project]",
        'name = "%s"' % name,
        'version = "0.1.0"',
        "",
        textwrap.dedent(external).strip(),
        "",
        "[tool.extdeps]",
        'build-backend = "setuptools.build_meta"',
        textwrap.dedent(tool).strip(),
        "",
    ])
    with open(os.path.join(root, "pyproject.toml"), "w") as f:
        f.write(pyproject)
    # setup.py leaves a mark when it builds a wheel (pip asks for the metadata first, which the
    # hook passes through): a stopped build never gets that far.
    with open(os.path.join(root, "setup.py"), "w") as f:
        f.write("import sys\nif 'bdist_wheel' in sys.argv:\n    open(__file__ + '.ran', 'w').close()\n" +
                textwrap.dedent(setup_py).lstrip("\n"))
    for rel, text in sources.items():
        write(os.path.join(root, rel), text)
    return root


def pip_wheel(project, out, env=None, extra=()):
    """pip wheel, offline; env values of None unset a variable."""
    e = dict(os.environ)
    e.update({"PIP_DISABLE_PIP_VERSION_CHECK": "1", "PIP_NO_INPUT": "1"})
    for k, v in (env or {}).items():
        if v is None:
            e.pop(k, None)
        else:
            e[k] = v
    return subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-build-isolation", "--no-deps", "--no-index",
         "-w", out, *extra, project],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True, env=e)


def python_build(project, out, *args):
    """python3 -m build (Debian's python3-build), offline, without isolation."""
    e = dict(os.environ, PIP_DISABLE_PIP_VERSION_CHECK="1", PIP_NO_INPUT="1")
    return subprocess.run([sys.executable, "-m", "build", "--no-isolation", "--outdir", out, *args, project],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True, env=e)


def run_from_wheel(wheel_dir, code, env=None):
    """Unpacks the one wheel in wheel_dir and runs `code` with it importable."""
    wheels = [w for w in os.listdir(wheel_dir) if w.endswith(".whl")]
    assert len(wheels) == 1, wheels
    target = os.path.join(wheel_dir, "site")
    with zipfile.ZipFile(os.path.join(wheel_dir, wheels[0])) as z:
        z.extractall(target)
    e = dict(os.environ)
    e["PYTHONPATH"] = target
    e.update(env or {})
    return subprocess.run([sys.executable, "-c", code], stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, universal_newlines=True, env=e)


ZLIB_EXT = {
    "zcrc.c": """
        #define PY_SSIZE_T_CLEAN
        #include <Python.h>
        #include <zlib.h>

        static PyObject* crc(PyObject* self, PyObject* args) {
          const char* data;
          Py_ssize_t n;
          if (!PyArg_ParseTuple(args, "y#", &data, &n)) return NULL;
          return PyLong_FromUnsignedLong(crc32(0L, (const Bytef*)data, (uInt)n));
        }
        static PyMethodDef methods[] = {{"crc", crc, METH_VARARGS, NULL}, {NULL, NULL, 0, NULL}};
        static struct PyModuleDef mod = {PyModuleDef_HEAD_INIT, "zcrc", NULL, -1, methods, NULL, NULL, NULL, NULL};
        PyMODINIT_FUNC PyInit_zcrc(void) { return PyModule_Create(&mod); }
        """,
}

ZLIB_SETUP = """
    import shlex, subprocess
    from setuptools import Extension, setup
    flags = shlex.split(subprocess.check_output(["pkg-config", "--cflags", "--libs", "zlib"], universal_newlines=True))
    setup(ext_modules=[Extension("zcrc", ["zcrc.c"],
                                 include_dirs=[f[2:] for f in flags if f.startswith("-I")],
                                 libraries=[f[2:] for f in flags if f.startswith("-l")])])
    """

# A C extension that includes <greet.h> and links -lgreet and says nowhere where they are: it
# builds only when CPATH and LIBRARY_PATH lead the compiler to them.
GREET_EXT = {
    "greetmod.c": """
        #define PY_SSIZE_T_CLEAN
        #include <Python.h>
        #include <greet.h>

        static PyObject* hello(PyObject* self, PyObject* unused) { return PyUnicode_FromString(greet()); }
        static PyMethodDef methods[] = {{"hello", hello, METH_NOARGS, NULL}, {NULL, NULL, 0, NULL}};
        static struct PyModuleDef mod = {PyModuleDef_HEAD_INIT, "greetmod", NULL, -1, methods, NULL, NULL, NULL, NULL};
        PyMODINIT_FUNC PyInit_greetmod(void) { return PyModule_Create(&mod); }
        """,
}
GREET_SETUP = """
    from setuptools import Extension, setup
    setup(ext_modules=[Extension("greetmod", ["greetmod.c"], libraries=["greet"])])
    """


def build_greet(prefix, pkgconfig=True):
    """libgreet.a and greet.h under prefix (and greet.pc), built by the machine's compiler."""
    os.makedirs(os.path.join(prefix, "include"), exist_ok=True)
    os.makedirs(os.path.join(prefix, "lib", "pkgconfig"), exist_ok=True)
    write(os.path.join(prefix, "include", "greet.h"), "const char* greet(void);\n")
    src = os.path.join(prefix, "greet.c")
    write(src, 'const char* greet(void) { return "hello from libgreet"; }\n')
    obj = os.path.join(prefix, "greet.o")
    subprocess.check_call(["cc", "-fPIC", "-c", src, "-o", obj])
    subprocess.check_call(["ar", "rcs", os.path.join(prefix, "lib", "libgreet.a"), obj])
    os.remove(obj)
    os.remove(src)
    if pkgconfig:
        write(os.path.join(prefix, "lib", "pkgconfig", "greet.pc"), """
            prefix=%s
            includedir=${prefix}/include
            libdir=${prefix}/lib

            Name: greet
            Description: says hello
            Version: 1.2.0
            Libs: -L${libdir} -lgreet
            Cflags: -I${includedir}
            """ % prefix)


def greet_tables(folder):
    """Mapping tables that know GREET_ID: pkg-config module greet, conda-forge package greet."""
    write(os.path.join(folder, "pkgconfig.toml"), """
        schema = 1
        ecosystem = "pkgconfig"
        description = "the hook tests' own library"

        [[id]]
        id = "%s"
        modules = ["greet"]
        """ % GREET_ID)
    write(os.path.join(folder, "conda-forge.toml"), """
        schema = 1
        ecosystem = "conda-forge"
        manager = "conda"
        description = "the hook tests' own library"
        version = "native"

        [[id]]
        id = "%s"
        host = ["greet"]
        """ % GREET_ID)
    return folder


class HookTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="extdeps-hook-")
        self.addCleanup(shutil.rmtree, self.tmp, True)
        self.out = os.path.join(self.tmp, "wheels")

    def assertBuilt(self, result):
        self.assertEqual(result.returncode, 0, result.stdout)
        self.assertEqual(len([w for w in os.listdir(self.out) if w.endswith(".whl")]), 1, result.stdout)


class MissingNeeds(HookTest):
    def test_a_need_no_manager_can_meet_stops_the_build_with_the_explanation(self):
        p = make_project(os.path.join(self.tmp, "p"), "needs-new-libxml2", """
            [external]
            host-requires = ["dep:generic/zlib", "dep:generic/libxml2@>=3"]
            """, ZLIB_SETUP, ZLIB_EXT)
        r = pip_wheel(p, self.out)
        self.assertNotEqual(r.returncode, 0, r.stdout)
        self.assertIn("missing: 1 of 2 needs of ./pyproject.toml are not met", r.stdout)
        self.assertIn("error: no package manager here provides dep:generic/libxml2 >=3 (libxml2-dev", r.stdout)
        self.assertIn("which is not >=3", r.stdout)
        self.assertIn("extdeps_backend: the build stopped before it began", r.stdout)
        self.assertFalse(os.path.exists(os.path.join(p, "setup.py.ran")), "setuptools must not have run")
        self.assertFalse(os.path.exists(self.out) and os.listdir(self.out))

    def test_an_optional_group_asked_for_through_config_settings_is_checked(self):
        p = make_project(os.path.join(self.tmp, "p"), "optional", """
            [external]
            host-requires = ["dep:generic/zlib"]

            [external.optional-host-requires]
            future = ["dep:generic/libxml2@>=3"]
            """, ZLIB_SETUP, ZLIB_EXT)
        r = pip_wheel(p, self.out, extra=["--config-settings", "extdeps-optional=future"])
        self.assertNotEqual(r.returncode, 0, r.stdout)
        self.assertIn("dep:generic/libxml2 >=3", r.stdout)
        # Without the group the build goes on (and setuptools never sees the key).
        self.assertBuilt(pip_wheel(p, self.out))


class MetNeeds(HookTest):
    def test_met_needs_build_and_the_extension_works(self):
        p = make_project(os.path.join(self.tmp, "p"), "zcrc", """
            [external]
            build-requires = ["dep:virtual/compiler/c", "dep:generic/pkg-config"]
            host-requires = ["dep:generic/zlib@>=1.2"]
            """, ZLIB_SETUP, ZLIB_EXT)
        r = pip_wheel(p, self.out)
        self.assertBuilt(r)
        self.assertTrue(os.path.exists(os.path.join(p, "setup.py.ran")))
        run = run_from_wheel(self.out, "import zcrc; print(zcrc.crc(b'extdeps'))")
        self.assertEqual(run.returncode, 0, run.stdout)
        self.assertEqual(run.stdout.strip(), str(zlib.crc32(b"extdeps")))

    def test_the_installed_backend_needs_no_backend_path(self):
        # pip install hooks/python (a copy: the build writes into the tree), then a project that
        # names extdeps_backend in [build-system] without backend-path.
        hook_src = os.path.join(self.tmp, "hook-src")
        shutil.copytree(HOOK_DIR, hook_src)
        site = os.path.join(self.tmp, "site-packages")
        r = subprocess.run([sys.executable, "-m", "pip", "install", "--no-build-isolation", "--no-deps",
                            "--no-index", "--target", site, hook_src],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
        self.assertEqual(r.returncode, 0, r.stdout)
        self.assertTrue(os.path.exists(os.path.join(site, "extdeps_backend.py")))
        p = make_project(os.path.join(self.tmp, "p"), "zcrc", """
            [external]
            host-requires = ["dep:generic/zlib"]
            """, ZLIB_SETUP, ZLIB_EXT)
        shutil.rmtree(os.path.join(p, "_extdeps"))
        with open(os.path.join(p, "pyproject.toml")) as f:
            text = f.read().replace('backend-path = ["_extdeps"]\n', "")
        with open(os.path.join(p, "pyproject.toml"), "w") as f:
            f.write(text)
        self.assertBuilt(pip_wheel(p, self.out, env={"PYTHONPATH": site}))

    def test_env_variables_reach_the_compiler(self):
        # libgreet lives in a prefix of its own, found by pkg-config through PKG_CONFIG_PATH; the
        # extension names neither its include nor its lib folder.
        prefix = os.path.join(self.tmp, "opt", "greet")
        build_greet(prefix)
        tables = greet_tables(os.path.join(self.tmp, "mappings"))
        external = """
            [external]
            host-requires = ["%s@>=1.0"]
            """ % GREET_ID
        tool = 'mapping-dirs = ["%s"]' % tables
        env = {"PKG_CONFIG_PATH": os.path.join(prefix, "lib", "pkgconfig")}
        for name in ("CPATH", "C_INCLUDE_PATH", "LIBRARY_PATH"):
            env[name] = None
        # Without the hook (setuptools alone) the compiler cannot find greet.h.
        plain = make_project(os.path.join(self.tmp, "plain"), "greetmod", external, GREET_SETUP, GREET_EXT,
                             tool=tool, backend="setuptools.build_meta")
        r = pip_wheel(plain, self.out, env=env)
        self.assertNotEqual(r.returncode, 0, r.stdout)
        self.assertIn("greet.h", r.stdout)
        # Through it, extdeps env's CPATH and LIBRARY_PATH lead the compiler there.
        p = make_project(os.path.join(self.tmp, "p"), "greetmod", external, GREET_SETUP, GREET_EXT, tool=tool)
        r = pip_wheel(p, self.out, env=env)
        self.assertBuilt(r)
        run = run_from_wheel(self.out, "import greetmod; print(greetmod.hello())")
        self.assertEqual(run.returncode, 0, run.stdout)
        self.assertEqual(run.stdout.strip(), "hello from libgreet")


class CoreMetadata(HookTest):
    """Core Metadata 2.6 (PEP 725), opted in with [tool.extdeps] external-metadata = true: the
    wheel the hook builds says what it needs at run time."""

    EXTERNAL = """
        [external]
        build-requires = ["dep:virtual/compiler/c"]
        host-requires = ["dep:generic/zlib"]
        dependencies = ["dep:generic/zlib@>=1.2", "dep:generic/extdeps-test-absent"]

        [external.optional-dependencies]
        gpu = ["dep:generic/cudart@>=12; platform_system == 'Linux'"]
        """

    def build(self):
        p = make_project(os.path.join(self.tmp, "p"), "zcrc-meta", self.EXTERNAL, ZLIB_SETUP, ZLIB_EXT,
                         tool="external-metadata = true")
        r = pip_wheel(p, self.out)
        self.assertBuilt(r)
        return [os.path.join(self.out, w) for w in os.listdir(self.out) if w.endswith(".whl")][0]

    def test_the_wheel_carries_requires_external_dep_read_back_by_importlib_metadata(self):
        wheel = self.build()
        site = os.path.join(self.tmp, "site")
        with zipfile.ZipFile(wheel) as z:
            z.extractall(site)
        code = ("import importlib.metadata as m, json; d = m.distribution('zcrc-meta'); "
                "print(json.dumps([d.metadata['Metadata-Version'], d.metadata.get_all('Requires-External-Dep'), "
                "d.metadata.get_all('Provides-External-Extra')]))")
        e = dict(os.environ, PYTHONPATH=site)
        r = subprocess.run([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           universal_newlines=True, env=e)
        self.assertEqual(r.returncode, 0, r.stdout)
        version, requires, extras = json.loads(r.stdout)
        self.assertEqual(version, "2.6")
        self.assertEqual(requires, [
            "dep:generic/zlib@>=1.2",
            "dep:generic/extdeps-test-absent",
            "dep:generic/cudart@>=12; (platform_system == 'Linux') and extra == 'gpu'",
        ])
        self.assertEqual(extras, ["gpu"])

    def test_the_record_still_matches_the_rewritten_metadata(self):
        import base64
        import hashlib
        wheel = self.build()
        with zipfile.ZipFile(wheel) as z:
            record = [n for n in z.namelist() if n.endswith(".dist-info/RECORD")][0]
            rows = {row.split(",")[0]: row.split(",")[1:] for row in z.read(record).decode().splitlines()}
            for name in z.namelist():
                if name == record:
                    continue
                data = z.read(name)
                digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
                self.assertEqual(rows[name], ["sha256=" + digest, str(len(data))], name)

    def test_check_python_audits_the_installed_distributions(self):
        wheel = self.build()
        venv = os.path.join(self.tmp, "venv")
        subprocess.check_call([sys.executable, "-m", "venv", "--without-pip", venv])
        python = os.path.join(venv, "bin", "python")
        site = subprocess.check_output([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                                       universal_newlines=True).strip()
        r = subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "--no-index", "--target", site, wheel],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
        self.assertEqual(r.returncode, 0, r.stdout)
        empty = os.path.join(self.tmp, "empty")
        os.makedirs(empty)
        audit = subprocess.run([EXTDEPS, "check", "--python", python, "--manager", "apt"], cwd=empty,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
        # zlib is on this machine; the absent id is not: the audit names it and fails.
        self.assertEqual(audit.returncode, 1, audit.stdout)
        self.assertIn("dep:generic/extdeps-test-absent", audit.stdout)
        self.assertIn("python environment " + python, audit.stdout)
        # The same venv without that wheel has nothing to audit.
        shutil.rmtree(site)
        os.makedirs(site)
        clean = subprocess.run([EXTDEPS, "check", "--python", python, "--manager", "apt"], cwd=empty,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
        self.assertEqual(clean.returncode, 0, clean.stdout)


FAKE_CONDA = r'''#!%(python)s
# conda install -y -p PREFIX [--override-channels] -c CHANNEL -- NAME=VERSION=BUILD...: unpacks each
# package's files (CHANNEL/files/NAME/) into PREFIX and writes its conda-meta record, as conda does.
import json, os, shutil, sys
args = sys.argv[1:]
with open(os.environ["FAKE_CONDA_LOG"], "a") as log:
    log.write(json.dumps(args) + "\n")
assert args[:2] == ["install", "-y"], args
prefix = args[args.index("-p") + 1]
channel = args[args.index("-c") + 1][len("file://"):]
index = json.load(open(os.path.join(channel, "linux-64", "repodata.json")))["packages.conda"]
for spec in [a for a in args if a.count("=") == 2]:
    name, version, build = spec.split("=")
    fn = "%%s-%%s-%%s.conda" %% (name, version, build)
    record = dict(index[fn], fn=fn, channel="file://" + channel + "/linux-64")
    shutil.copytree(os.path.join(channel, "files", name), prefix, dirs_exist_ok=True)
    os.makedirs(os.path.join(prefix, "conda-meta"), exist_ok=True)
    json.dump(record, open(os.path.join(prefix, "conda-meta", fn[:-len(".conda")] + ".json"), "w"))
print("installed into " + prefix)
'''



def have_twine():
    return shutil.which("twine") is not None


class Publishing(HookTest):
    """What a maintainer publishes: a wheel an index accepts, and an sdist anyone can build."""

    EXTERNAL = """
        [external]
        build-requires = ["dep:virtual/compiler/c", "dep:generic/pkg-config"]
        host-requires = ["dep:generic/zlib@>=1.2"]
        dependencies = ["dep:generic/zlib@>=1.2"]
        """

    def test_by_default_the_wheel_metadata_is_the_real_backends_and_twine_accepts_it(self):
        p = make_project(os.path.join(self.tmp, "p"), "zcrc-plain", self.EXTERNAL, ZLIB_SETUP, ZLIB_EXT)
        # A description, as any published project has (twine checks that it renders).
        write(os.path.join(p, "README.md"), "# zcrc-plain\n\nCRC-32 through zlib.\n")
        with open(os.path.join(p, "pyproject.toml")) as f:
            text = f.read()
        with open(os.path.join(p, "pyproject.toml"), "w") as f:
            f.write(text.replace('version = "0.1.0"\n', 'version = "0.1.0"\nreadme = "README.md"\n', 1))
        self.assertBuilt(pip_wheel(p, self.out))
        wheel = [os.path.join(self.out, w) for w in os.listdir(self.out) if w.endswith(".whl")][0]
        with zipfile.ZipFile(wheel) as z:
            name = [n for n in z.namelist() if n.endswith(".dist-info/METADATA")][0]
            metadata = z.read(name).decode()
        self.assertNotIn("Requires-External-Dep", metadata)
        self.assertNotIn("Metadata-Version: 2.6", metadata)
        if not have_twine():
            self.skipTest("twine is missing (Debian: twine)")
        r = subprocess.run(["twine", "check", "--strict", wheel], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, universal_newlines=True)
        self.assertEqual(r.returncode, 0, r.stdout)
        self.assertIn("PASSED", r.stdout)

    def test_an_sdist_is_made_where_a_need_is_missing(self):
        # An sdist compiles nothing: nothing native is checked for it.
        p = make_project(os.path.join(self.tmp, "p"), "needs-new-libxml2", """
            [external]
            host-requires = ["dep:generic/libxml2@>=3"]
            """, ZLIB_SETUP, ZLIB_EXT)
        r = python_build(p, self.out, "--sdist")
        self.assertEqual(r.returncode, 0, r.stdout)
        self.assertEqual([f for f in os.listdir(self.out) if f.endswith(".tar.gz")], ["needs-new-libxml2-0.1.0.tar.gz"])
        self.assertNotIn("no package manager here provides", r.stdout)

    def test_the_documented_recipe_puts_the_backend_in_the_sdist_and_the_wheel_builds_from_it(self):
        # hooks/python/README.md: an in-tree backend goes into the sdist through MANIFEST.in;
        # python -m build makes the sdist, then the wheel from the unpacked sdist.
        p = make_project(os.path.join(self.tmp, "p"), "zcrc-sdist", self.EXTERNAL, ZLIB_SETUP, ZLIB_EXT)
        write(os.path.join(p, "MANIFEST.in"), "graft _extdeps\nglobal-exclude *.py[cod]\n")
        r = python_build(p, self.out)
        self.assertEqual(r.returncode, 0, r.stdout)
        self.assertEqual(len([f for f in os.listdir(self.out) if f.endswith(".whl")]), 1, r.stdout)
        import tarfile
        with tarfile.open(os.path.join(self.out, "zcrc-sdist-0.1.0.tar.gz")) as t:
            self.assertIn("zcrc-sdist-0.1.0/_extdeps/extdeps_backend.py", t.getnames())

    def test_without_extdeps_the_build_warns_once_and_goes_on(self):
        p = make_project(os.path.join(self.tmp, "p"), "zcrc-noext", self.EXTERNAL, ZLIB_SETUP, ZLIB_EXT)
        # -v: pip shows what the backend said only when asked to.
        r = pip_wheel(p, self.out, env={"EXTDEPS_BIN": None, "PATH": "/usr/bin:/bin"}, extra=["-v"])
        self.assertBuilt(r)
        self.assertEqual(r.stdout.count("warning: extdeps is not on PATH"), 1, r.stdout)

    def test_a_project_that_requires_extdeps_stops_without_it(self):
        p = make_project(os.path.join(self.tmp, "p"), "zcrc-req", self.EXTERNAL, ZLIB_SETUP, ZLIB_EXT,
                         tool="extdeps-required = true")
        r = pip_wheel(p, self.out, env={"EXTDEPS_BIN": None, "PATH": "/usr/bin:/bin"})
        self.assertNotEqual(r.returncode, 0, r.stdout)
        self.assertIn("extdeps is not on PATH, and [tool.extdeps] extdeps-required = true", r.stdout)
        self.assertFalse(os.path.exists(os.path.join(p, "setup.py.ran")), "setuptools must not have run")


PYPY = "/usr/bin/pypy3"


class Markers(HookTest):
    """The interpreter that runs the build decides the markers, not the python3 on PATH."""

    def setUp(self):
        super().setUp()
        if not os.access(PYPY, os.X_OK):
            self.skipTest("a second interpreter is needed: %s (Debian: pypy3)" % PYPY)
        # PATH's python3 is PyPy (Python 3.9); the build runs in this CPython (3.11 on bookworm).
        self.bin = os.path.join(self.tmp, "bin")
        os.makedirs(self.bin)
        os.symlink(PYPY, os.path.join(self.bin, "python3"))
        self.path = self.bin + os.pathsep + os.environ.get("PATH", "")
        v = subprocess.check_output([PYPY, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
                                    universal_newlines=True).strip()
        self.assertNotEqual(v, "%d.%d" % sys.version_info[:2], "the two interpreters must differ")

    def project(self, marker):
        return make_project(os.path.join(self.tmp, "p"), "zcrc-marker", """
            [external]
            host-requires = ["dep:generic/zlib", "dep:generic/libxml2@>=3; %s"]
            """ % marker, ZLIB_SETUP, ZLIB_EXT)

    def test_a_need_whose_marker_is_false_for_the_building_interpreter_is_not_checked(self):
        # True for PATH's python3 (PyPy 3.9), false for this one: the build goes on.
        marker = "python_version < '%d.%d'" % sys.version_info[:2]
        self.assertBuilt(pip_wheel(self.project(marker), self.out, env={"PATH": self.path}))

    def test_a_need_whose_marker_is_true_for_the_building_interpreter_is_checked(self):
        # False for PATH's python3 (PyPy), true for this CPython: the missing need stops it.
        r = pip_wheel(self.project("implementation_name == 'cpython'"), self.out, env={"PATH": self.path})
        self.assertNotEqual(r.returncode, 0, r.stdout)
        self.assertIn("dep:generic/libxml2 >=3", r.stdout)

class Install(HookTest):
    """EXTDEPS_INSTALL=1 runs the plan's steps first: here a conda environment's."""

    def setUp(self):
        if not compiled_in("conda"):
            self.skipTest("built without the conda provider")
        super().setUp()
        self.channel = os.path.join(self.tmp, "channel")
        record = {"name": "greet", "version": "1.2.0", "build": "h0_0", "build_number": 0,
                  "depends": [], "subdir": "linux-64", "license": "MIT"}
        write(os.path.join(self.channel, "linux-64", "repodata.json"), json.dumps(
            {"info": {"subdir": "linux-64"}, "packages": {}, "packages.conda": {"greet-1.2.0-h0_0.conda": record}}))
        write(os.path.join(self.channel, "noarch", "repodata.json"), json.dumps(
            {"info": {"subdir": "noarch"}, "packages": {}, "packages.conda": {}}))
        build_greet(os.path.join(self.channel, "files", "greet"), pkgconfig=False)
        self.prefix = os.path.join(self.tmp, "envs", "work")
        os.makedirs(os.path.join(self.prefix, "conda-meta"))
        bindir = os.path.join(self.tmp, "bin")
        os.makedirs(bindir)
        conda = os.path.join(bindir, "conda")
        write(conda, FAKE_CONDA % {"python": sys.executable})
        os.chmod(conda, 0o755)
        self.log = os.path.join(self.tmp, "conda.log")
        self.env = {"CONDA_PREFIX": self.prefix, "CONDA_SUBDIR": "linux-64", "EXTDEPS_CONDA_FRONTEND": "conda",
                    "FAKE_CONDA_LOG": self.log, "PATH": bindir + os.pathsep + os.environ.get("PATH", ""),
                    "CPATH": None, "LIBRARY_PATH": None, "EXTDEPS_INSTALL": None}
        tables = greet_tables(os.path.join(self.tmp, "mappings"))
        self.project = make_project(os.path.join(self.tmp, "p"), "greetmod", """
            [external]
            host-requires = ["%s"]
            """ % GREET_ID, GREET_SETUP, GREET_EXT, tool="""
            mapping-dirs = ["%s"]
            managers = ["conda"]
            conda-channels = ["file://%s"]
            """ % (tables, self.channel))
        self.command = "conda install -y -p %s --override-channels -c file://%s -- greet=1.2.0=h0_0" % (self.prefix, self.channel)

    def test_without_it_the_build_stops_with_the_exact_command(self):
        r = pip_wheel(self.project, self.out, env=self.env)
        self.assertNotEqual(r.returncode, 0, r.stdout)
        self.assertIn("planned       %s  [host]  greet 1.2.0 (conda)" % GREET_ID, r.stdout)
        self.assertIn("  " + self.command + "\n", r.stdout)
        self.assertIn("EXTDEPS_INSTALL=1", r.stdout)
        self.assertFalse(os.path.exists(self.log), "nothing was installed")

    def test_with_it_the_step_runs_then_the_build_uses_the_environment(self):
        env = dict(self.env, EXTDEPS_INSTALL="1")
        r = pip_wheel(self.project, self.out, env=env)
        self.assertBuilt(r)
        with open(self.log) as f:
            calls = [json.loads(line) for line in f]
        self.assertEqual([" ".join(["conda"] + c) for c in calls], [self.command])
        self.assertTrue(os.path.exists(os.path.join(self.prefix, "conda-meta", "greet-1.2.0-h0_0.json")))
        # The compiler found greet.h and libgreet.a in the environment: CPATH, LIBRARY_PATH.
        run = run_from_wheel(self.out, "import greetmod; print(greetmod.hello())")
        self.assertEqual(run.stdout.strip(), "hello from libgreet", run.stdout)


class Hooks(unittest.TestCase):
    """The hooks called directly, in this process, as a frontend's helper would."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="extdeps-hook-")
        self.addCleanup(shutil.rmtree, self.tmp, True)
        self.cwd = os.getcwd()
        self.addCleanup(os.chdir, self.cwd)
        saved_path = list(sys.path)
        self.addCleanup(setattr, sys, "path", saved_path)
        saved_env = dict(os.environ)
        self.addCleanup(lambda: (os.environ.clear(), os.environ.update(saved_env)))
        for m in ("extdeps_backend", "minimal_backend"):
            sys.modules.pop(m, None)
        sys.path.insert(0, HOOK_DIR)

    def backend(self, project, real):
        write(os.path.join(project, "pyproject.toml"), """
            [build-system]
            build-backend = "extdeps_backend"

            [external]
            build-requires = ["dep:virtual/compiler/c"]

            [tool.extdeps]
            build-backend = "%s"
            """ % real)
        os.chdir(project)
        import extdeps_backend
        return extdeps_backend

    def test_other_hooks_are_the_real_backends_and_missing_ones_stay_missing(self):
        project = os.path.join(self.tmp, "p")
        write(os.path.join(project, "minimal_backend.py"), """
            import os
            def get_requires_for_build_wheel(config_settings=None):
                return ["from-minimal"]
            def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
                open(os.path.join(wheel_directory, "env.json"), "w").write(__import__("json").dumps(dict(os.environ)))
                return "env.json"
            def build_sdist(sdist_directory, config_settings=None):
                return "x.tar.gz"
            """)
        sys.path.insert(0, project)
        b = self.backend(project, "minimal_backend")
        self.assertEqual(b.get_requires_for_build_wheel(), ["from-minimal"])
        self.assertFalse(hasattr(b, "build_editable"))
        self.assertFalse(hasattr(b, "prepare_metadata_for_build_wheel"))
        self.assertTrue(hasattr(b, "build_sdist"))
        # The build hook checks first (met here), runs the real one with the variables, and
        # leaves os.environ as it was.
        before = dict(os.environ)
        os.environ["EXTDEPS_BIN"] = EXTDEPS
        before["EXTDEPS_BIN"] = EXTDEPS
        self.assertEqual(b.build_wheel(self.tmp), "env.json")
        self.assertEqual(dict(os.environ), before)

    def test_setuptools_hooks_pass_through(self):
        import setuptools.build_meta as real
        project = os.path.join(self.tmp, "p")
        b = self.backend(project, "setuptools.build_meta")
        self.assertEqual(b.get_requires_for_build_wheel(), real.get_requires_for_build_wheel())
        self.assertEqual(hasattr(b, "build_editable"), hasattr(real, "build_editable"))
        self.assertIs(b.prepare_metadata_for_build_wheel, real.prepare_metadata_for_build_wheel)

    def test_a_project_without_a_real_backend_or_extdeps_is_told_what_to_do(self):
        project = os.path.join(self.tmp, "p")
        write(os.path.join(project, "pyproject.toml"), '[external]\nbuild-requires = ["dep:virtual/compiler/c"]\n')
        os.chdir(project)
        import extdeps_backend
        with self.assertRaises(extdeps_backend.ExternalDependencyError) as e:
            extdeps_backend.build_wheel(self.tmp)
        self.assertIn('[tool.extdeps], e.g. build-backend = "setuptools.build_meta"', str(e.exception))
        sys.modules.pop("extdeps_backend")
        b = self.backend(project, "setuptools.build_meta")
        os.environ["EXTDEPS_BIN"] = os.path.join(self.tmp, "no-such-extdeps")
        with self.assertRaises(b.ExternalDependencyError) as e:
            b.build_wheel(self.tmp)
        self.assertIn("EXTDEPS_BIN=%s is not an executable file" % os.environ["EXTDEPS_BIN"], str(e.exception))

    def test_without_a_toml_reader_the_real_backend_is_still_read(self):
        # Python 3.8-3.10 have no tomllib; without tomli either, [tool.extdeps] is scanned.
        project = os.path.join(self.tmp, "p")
        write(os.path.join(project, "pyproject.toml"), """
            [tool.other]
            build-backend = "not.this"

            [ tool.extdeps ]   # a comment
            managers = ["apt"]
            build-backend = 'setuptools.build_meta:__legacy__'  # the legacy object

            [external]
            build-requires = ["dep:virtual/compiler/c"]
            """)
        os.chdir(project)
        saved = {m: sys.modules.get(m) for m in ("tomllib", "tomli")}
        self.addCleanup(lambda: [sys.modules.pop(m, None) if v is None else sys.modules.__setitem__(m, v)
                                 for m, v in saved.items()])
        sys.modules["tomllib"] = None  # import raises ImportError
        sys.modules["tomli"] = None
        import extdeps_backend
        self.assertEqual(extdeps_backend._real_backend_name(), "setuptools.build_meta:__legacy__")
        import setuptools.build_meta
        self.assertIs(extdeps_backend._real_backend(), setuptools.build_meta.__legacy__)

    def test_variables_go_before_what_was_set_and_are_undone_afterwards(self):
        import extdeps_backend
        os.environ["CPATH"] = "/usr/local/include:/opt/a/include"
        os.environ.pop("CUDA_HOME", None)
        os.environ.pop("LIBRARY_PATH", None)
        variables = [
            {"name": "CPATH", "kind": "path-list", "entries": ["/opt/a/include", "/opt/b include"]},
            {"name": "LIBRARY_PATH", "kind": "path-list", "entries": ["/opt/a/lib"]},
            {"name": "CUDA_HOME", "kind": "value", "value": "/usr/local/cuda-12.4"},
        ]
        with extdeps_backend._exported(variables):
            self.assertEqual(os.environ["CPATH"], "/opt/a/include:/opt/b include:/usr/local/include")
            self.assertEqual(os.environ["LIBRARY_PATH"], "/opt/a/lib")
            self.assertEqual(os.environ["CUDA_HOME"], "/usr/local/cuda-12.4")
        self.assertEqual(os.environ["CPATH"], "/usr/local/include:/opt/a/include")
        self.assertNotIn("LIBRARY_PATH", os.environ)
        self.assertNotIn("CUDA_HOME", os.environ)

    def test_install_never_runs_root_steps_through_sudo_unless_told(self):
        import extdeps_backend
        report = {"steps": [{"manager": "apt", "command": ["sudo", "apt-get", "install", "-y", "libfoo-dev=1.0"],
                             "line": "sudo apt-get install -y libfoo-dev=1.0", "requires_elevation": True}]}
        real_geteuid = os.geteuid
        self.addCleanup(setattr, os, "geteuid", real_geteuid)
        os.geteuid = lambda: 1000  # a build that does not run as root
        os.environ["EXTDEPS_INSTALL"] = "1"
        with self.assertRaises(extdeps_backend.ExternalDependencyError) as e:
            extdeps_backend._install(os.path.join(self.tmp, "must-not-run"), ["--category", "build,host"], report)
        self.assertIn("these steps need root and this build does not run as root:\n"
                      "  sudo apt-get install -y libfoo-dev=1.0\n"
                      "run them yourself, or set EXTDEPS_INSTALL=sudo", str(e.exception))


if __name__ == "__main__":
    print("python: %s (%s)" % (sys.executable, sys.version.split()[0]), file=sys.stderr)
    unittest.main()
