"""Builds a Python example's wheel through its extdeps_backend with pip (offline), installs it
into a folder of its own and runs what its README shows. argv: EXAMPLE WORK."""
import os
import shutil
import subprocess
import sys
import zipfile

example, work = sys.argv[1], sys.argv[2]
shutil.rmtree(work, ignore_errors=True)
# A copy, so that the build leaves nothing in the source tree (links resolved: the in-tree hook).
src = os.path.join(work, "src")
shutil.copytree(example, src, symlinks=False)
out = os.path.join(work, "wheels")
env = dict(os.environ, PIP_DISABLE_PIP_VERSION_CHECK="1", PIP_NO_INPUT="1")
print("python: %s (%s)" % (sys.executable, sys.version.split()[0]), flush=True)
subprocess.check_call([sys.executable, "-m", "pip", "wheel", "--no-build-isolation", "--no-deps",
                       "--no-index", "-w", out, src], env=env)
(wheel,) = [w for w in os.listdir(out) if w.endswith(".whl")]
site = os.path.join(work, "site")
with zipfile.ZipFile(os.path.join(out, wheel)) as z:
    z.extractall(site)
code = (
    "import xmlzip\n"
    "print(xmlzip.describe(b'<a><b/><b/></a>'))\n"
    "print('libxml2', xmlzip.libxml2_version(), 'zlib', xmlzip.zlib_version())\n"
)
result = subprocess.run([sys.executable, "-c", code], env=dict(env, PYTHONPATH=site),
                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
print(result.stdout)
if result.returncode != 0 or not result.stdout.startswith("('a', 3, "):
    sys.exit("the built extension did not work")

# As a maintainer publishes it: python -m build makes the sdist, then the wheel from the unpacked
# sdist (so the in-tree backend must be in the sdist), and twine accepts both.
dist = os.path.join(work, "dist")
subprocess.check_call([sys.executable, "-m", "build", "--no-isolation", "--outdir", dist, src], env=env)
made = sorted(os.listdir(dist))
print("python -m build made:", made, flush=True)
if len([f for f in made if f.endswith(".tar.gz")]) != 1 or len([f for f in made if f.endswith(".whl")]) != 1:
    sys.exit("python -m build did not make one sdist and one wheel")
twine = shutil.which("twine")
if twine is None:
    print("skipped: twine is missing (Debian: twine)")
    sys.exit(77)
subprocess.check_call([twine, "check", "--strict"] + [os.path.join(dist, f) for f in made])
