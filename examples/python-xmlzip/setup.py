# The extension's compiler and linker flags come from pkg-config, as most C extensions get them;
# extdeps_backend has made sure the modules are there (and exported PKG_CONFIG_PATH when they live
# outside the default search path).
import shlex
import subprocess

from setuptools import Extension, setup

MODULES = ["libxml-2.0", "zlib"]


def pkg_config(*args):
    out = subprocess.run(["pkg-config", *args, *MODULES], check=True, stdout=subprocess.PIPE,
                         universal_newlines=True).stdout
    return shlex.split(out)


cflags = pkg_config("--cflags")
libs = pkg_config("--libs")

setup(
    package_dir={"": "src"},
    packages=["xmlzip"],
    ext_modules=[
        Extension(
            "xmlzip._xmlzip",
            sources=["src/xmlzip/_xmlzip.c"],
            include_dirs=[f[2:] for f in cflags if f.startswith("-I")],
            extra_compile_args=[f for f in cflags if not f.startswith("-I")],
            library_dirs=[f[2:] for f in libs if f.startswith("-L")],
            libraries=[f[2:] for f in libs if f.startswith("-l")],
            extra_link_args=[f for f in libs if not f.startswith(("-L", "-l"))],
        )
    ],
)
