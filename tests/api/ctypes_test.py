"""The C API from another language: Python's ctypes loads libextdeps.so (argv[1]) and asks it
about examples/cuda-saxpy over the fixture machine of the CLI tests (tests/data/apt/bookworm:
real bookworm lists, no non-free component, no CUDA toolkit). argv: LIBRARY SOURCE_DIR CACHE."""
import ctypes
import json
import os
import sys

library, source, cache = sys.argv[1:4]
lib = ctypes.CDLL(library)
lib.extdeps_version.restype = ctypes.c_char_p
lib.extdeps_session_new.restype = ctypes.c_void_p
lib.extdeps_session_free.argtypes = [ctypes.c_void_p]
lib.extdeps_session_set.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_char_p]
lib.extdeps_session_error.argtypes = [ctypes.c_void_p]
lib.extdeps_session_error.restype = ctypes.c_char_p
for name in ("extdeps_load", "extdeps_env", "extdeps_check"):
    getattr(lib, name).argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p)]
for name in ("extdeps_result_text", "extdeps_result_error", "extdeps_result_json"):
    getattr(lib, name).argtypes = [ctypes.c_void_p]
    getattr(lib, name).restype = ctypes.c_char_p
lib.extdeps_result_env.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
lib.extdeps_result_env.restype = ctypes.c_char_p
lib.extdeps_result_free.argtypes = [ctypes.c_void_p]

print("extdeps", lib.extdeps_version().decode())
s = lib.extdeps_session_new()
for key, value in [("root", os.path.join(source, "tests/data/apt/bookworm")), ("cache-dir", cache),
                   ("env", "EXTDEPS_MAPPINGS_DIR=" + os.path.join(source, "mappings")),
                   ("env", "PKG_CONFIG_LIBDIR="), ("env", "PATH=/usr/bin:/bin"),
                   ("category", "build,host"), ("optional", "gpu")]:
    assert lib.extdeps_session_set(s, key.encode(), value.encode()) == 0, lib.extdeps_session_error(s)
assert lib.extdeps_session_set(s, b"colour", b"blue") == 2
assert lib.extdeps_session_error(s).decode().startswith("unknown option 'colour'")

project = os.path.join(source, "examples/cuda-saxpy").encode()
r = ctypes.c_void_p()
assert lib.extdeps_load(s, project, ctypes.byref(r)) == 0
needs = json.loads(lib.extdeps_result_json(r))["needs"]
lib.extdeps_result_free(r)
assert [(n["category"], n["id"], n.get("group")) for n in needs] == [
    ("build", "dep:virtual/compiler/c", None), ("build", "dep:generic/cmake", None),
    ("build", "dep:virtual/compiler/cuda", "gpu"), ("host", "dep:generic/cuda", "gpu")], needs

code = lib.extdeps_env(s, project, ctypes.byref(r))
text = lib.extdeps_result_text(r).decode()
doc = json.loads(lib.extdeps_result_env(r, b"json"))
lib.extdeps_result_free(r)
print(text)
assert code == 1, code
assert doc["satisfied"] is False
missing = {m["id"]: m for m in doc["missing"]}
for id, package in (("dep:virtual/compiler/cuda", "nvidia-cuda-toolkit"), ("dep:generic/cuda", "nvidia-cuda-dev")):
    assert missing[id]["status"] == "unsatisfiable", missing[id]
    assert ("apt: %s is in the non-free component, which this machine's apt sources do not list" % package) in missing[id]["message"]

# A bad path: exit 2 and the error line, no JSON.
code = lib.extdeps_check(s, b"/no/such/project", ctypes.byref(r))
assert code == 2 and lib.extdeps_result_json(r) is None and lib.extdeps_result_error(r), code
lib.extdeps_result_free(r)
lib.extdeps_session_free(s)
print("ok: the C API through ctypes")
