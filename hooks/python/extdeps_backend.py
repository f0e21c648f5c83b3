"""A PEP 517 build backend that makes sure a project's external needs are met before it builds.

It wraps the project's real backend. Before ``build_wheel`` and ``build_editable`` it asks
extdeps whether every build and host need of the project's ``[external]`` table (PEP 725) is met,
for the interpreter the build runs in; when one is not, the build stops with extdeps's
explanation and the exact commands that install what is missing (with ``EXTDEPS_INSTALL=1`` it
runs them first). Then it calls the real backend with what ``extdeps env`` says a build needs to
find those packages (PKG_CONFIG_PATH, CPATH, LIBRARY_PATH, CUDA_HOME, ...) in the environment.
``build_sdist`` compiles nothing and checks nothing. Without the extdeps program the build warns
once and goes on, unless ``[tool.extdeps] extdeps-required = true``. Every other hook is the real
backend's own; with ``[tool.extdeps] external-metadata = true`` the wheels it builds (and the
metadata it prepares) also carry the project's ``[external].dependencies`` and
``optional-dependencies`` as the ``Requires-External-Dep`` and ``Provides-External-Extra`` fields
of PEP 725 (a Draft: Core Metadata 2.6, which indexes and ``twine check`` do not accept yet).

    [build-system]
    requires = ["setuptools"]
    build-backend = "extdeps_backend"
    backend-path = ["_build"]            # a copy of this file in the tree, or install it

    [tool.extdeps]
    build-backend = "setuptools.build_meta"

Pure Python, no dependencies (Python 3.8+). See hooks/python/README.md.
"""

import base64
import contextlib
import hashlib
import importlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile

__all__ = ["ExternalDependencyError"]

_OWN_NAME = "extdeps_backend"
_CATEGORIES = "build,host"
# config_settings keys this backend reads (pip: -C extdeps-optional=gpu); the real backend does
# not see them.
_SETTING_OPTIONAL = "extdeps-optional"
_SETTING_MANAGER = "extdeps-manager"


class ExternalDependencyError(SystemExit):
    """The build stops: a need is not met, or extdeps could not say.

    A SystemExit, so that a frontend running the hook in a child process shows the explanation
    as it is, without a traceback; code that calls the hooks itself can catch it by this type.
    """


def _say(message):
    print("extdeps_backend: " + message, file=sys.stderr, flush=True)


# --- the project's configuration --------------------------------------------------------------

def _read_pyproject(path="pyproject.toml"):
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise ExternalDependencyError("extdeps_backend: cannot read %s: %s" % (path, e.strerror))
    try:
        import tomllib  # Python 3.11+
    except ImportError:
        try:
            import tomli as tomllib  # noqa: F401 (present wherever pip's own build tools are)
        except ImportError:
            tomllib = None
    if tomllib is not None:
        try:
            return tomllib.loads(data.decode("utf-8"))
        except Exception as e:  # tomllib.TOMLDecodeError, UnicodeDecodeError
            raise ExternalDependencyError("extdeps_backend: %s: %s" % (path, e))
    return {"tool": {"extdeps": _scan_tool_extdeps(data.decode("utf-8", "replace"))}}


def _scan_tool_extdeps(text):
    """The string keys of [tool.extdeps], for Pythons without a TOML reader (3.8-3.10)."""
    out = {}
    in_table = False
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("["):
            in_table = re.match(r"^\[\s*tool\s*\.\s*extdeps\s*\]\s*(#.*)?$", stripped) is not None
            continue
        if not in_table:
            continue
        m = re.match(r"""^([A-Za-z0-9_-]+)\s*=\s*(?:"([^"\\]*)"|'([^']*)'|(true|false))\s*(#.*)?$""", stripped)
        if m:
            out[m.group(1)] = m.group(4) == "true" if m.group(4) else m.group(2) if m.group(2) is not None else m.group(3)
    return out


def _tool_table():
    tool = _read_pyproject().get("tool", {}).get("extdeps", {})
    return tool if isinstance(tool, dict) else {}


def _tool_flag(key):
    """A true/false key of [tool.extdeps] (the scanner of Pythons without tomllib reads only
    strings: "true" counts there too)."""
    value = _tool_table().get(key, False)
    if isinstance(value, str):
        return value.strip().lower() == "true"
    return value is True


def _real_backend_name():
    tool = _tool_table()
    name = tool.get("build-backend") if isinstance(tool, dict) else None
    if not isinstance(name, str) or not name.strip():
        raise ExternalDependencyError(
            "extdeps_backend: pyproject.toml names no real backend; add it under [tool.extdeps], "
            'e.g. build-backend = "setuptools.build_meta"')
    name = name.strip()
    if name.split(":")[0].strip() == _OWN_NAME:
        raise ExternalDependencyError(
            "extdeps_backend: [tool.extdeps] build-backend names extdeps_backend itself; name the "
            "backend it wraps (setuptools.build_meta, scikit_build_core.build, ...)")
    return name


_backend = None


def _real_backend():
    """The wrapped backend: "module" or "module:object" (PEP 517's build-backend syntax)."""
    global _backend
    if _backend is None:
        name = _real_backend_name()
        module_name, _, attr = name.partition(":")
        try:
            obj = importlib.import_module(module_name.strip())
        except ImportError as e:
            raise ExternalDependencyError(
                "extdeps_backend: cannot import the real backend %r: %s (is it in "
                "[build-system] requires?)" % (name, e))
        for part in filter(None, attr.strip().split(".")):
            obj = getattr(obj, part)
        _backend = obj
    return _backend


# --- extdeps ----------------------------------------------------------------------------------

_warned_missing = False


def _extdeps_program():
    """EXTDEPS_BIN, else the program of the extdeps wheel where it is installed beside this
    module (`build-system.requires = ["extdeps"]`), else extdeps on PATH; None where there is none
    and the project does not require it (the build goes on, warned once)."""
    global _warned_missing
    given = os.environ.get("EXTDEPS_BIN")
    if given:
        if os.path.isfile(given) and os.access(given, os.X_OK):
            return given
        raise ExternalDependencyError(
            "extdeps_backend: EXTDEPS_BIN=%s is not an executable file" % given)
    try:
        import extdeps
        return extdeps.program()
    except (ImportError, AttributeError, FileNotFoundError):
        pass
    found = shutil.which("extdeps")
    if found:
        return found
    if _tool_flag("extdeps-required"):
        raise ExternalDependencyError(
            "extdeps_backend: extdeps is not on PATH, and [tool.extdeps] extdeps-required = true; "
            "install it (pip install extdeps, or list it in [build-system] requires), or set "
            "EXTDEPS_BIN to the extdeps program")
    if not _warned_missing:
        _warned_missing = True
        _say("warning: extdeps is not on PATH (nor EXTDEPS_BIN set): this project's [external] "
             "needs are not checked before it builds; a missing one shows as a compiler or linker "
             "error. Install extdeps, or list it in [build-system] requires")
    return None


def _options(config_settings):
    # The interpreter running the build decides the markers (python_version, ...), not the
    # python3 on PATH, and is the one pypi plans for.
    args = ["--category", os.environ.get("EXTDEPS_CATEGORIES", _CATEGORIES)]
    if sys.executable:
        args += ["--python", sys.executable]
    settings = config_settings or {}
    for key, flag in ((_SETTING_OPTIONAL, "--optional"), (_SETTING_MANAGER, "--manager")):
        value = settings.get(key)
        values = value if isinstance(value, list) else [value] if value else []
        for v in values:
            for item in str(v).split(","):
                if item.strip():
                    args += [flag, item.strip()]
    return args


def _run(argv):
    try:
        return subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               universal_newlines=True)
    except OSError as e:
        raise ExternalDependencyError("extdeps_backend: cannot run %s: %s" % (argv[0], e.strerror))


def _env_report(program, options):
    """(exit code, the JSON of `extdeps env --format json`, its stderr)."""
    proc = _run([program, "env", ".", "--format", "json"] + options)
    if proc.returncode in (0, 1):
        try:
            return proc.returncode, json.loads(proc.stdout), proc.stderr
        except ValueError:
            pass
    return proc.returncode, None, proc.stderr


def _fail_missing(program, options, report):
    check = _run([program, "check", "."] + options)
    text = (check.stdout + check.stderr).rstrip()
    lines = [text, ""] if text else []
    steps = report.get("steps", []) if report else []
    if steps:
        lines.append("extdeps_backend: the build stopped before it began; install what is missing "
                     "with the command%s above, or let the build run %s: EXTDEPS_INSTALL=1"
                     % ("s" if len(steps) > 1 else "", "them" if len(steps) > 1 else "it"))
    else:
        lines.append("extdeps_backend: the build stopped before it began: no package manager here "
                     "can install what is missing (see above)")
    raise ExternalDependencyError("\n".join(lines))


def _install(program, options, report):
    """EXTDEPS_INSTALL=1 (or =sudo): run the plan's steps through `extdeps install --yes`."""
    mode = os.environ.get("EXTDEPS_INSTALL", "")
    steps = report.get("steps", [])
    if not steps:
        return
    lines = [s.get("line", " ".join(s.get("command", []))) for s in steps]
    elevated = any(s.get("requires_elevation") for s in steps)
    not_root = hasattr(os, "geteuid") and os.geteuid() != 0
    if elevated and not_root and mode != "sudo":
        raise ExternalDependencyError(
            "extdeps_backend: EXTDEPS_INSTALL=1, but these steps need root and this build does not "
            "run as root:\n  " + "\n  ".join(lines) + "\nrun them yourself, or set "
            "EXTDEPS_INSTALL=sudo to let extdeps run them through sudo")
    _say("EXTDEPS_INSTALL=%s: running %d step%s:\n  %s"
         % (mode, len(steps), "" if len(steps) == 1 else "s", "\n  ".join(lines)))
    # Its output goes to stderr: a frontend keeps stdout for itself.
    try:
        out = sys.stderr.fileno()
    except (AttributeError, ValueError, OSError):  # a stderr that is not a file (io.UnsupportedOperation)
        out = None
    rc = subprocess.call([program, "install", ".", "--yes"] + options, stdout=out)
    if rc != 0:
        raise ExternalDependencyError(
            "extdeps_backend: installing what is missing failed (extdeps install exited with %d); "
            "the build stopped" % rc)


def _ensure_met(config_settings):
    """The variables of `extdeps env` once every need is met; raises when one is not."""
    if os.environ.get("EXTDEPS_SKIP") == "1":
        _say("EXTDEPS_SKIP=1: external needs are not checked")
        return []
    program = _extdeps_program()
    if program is None:
        return []
    options = _options(config_settings)
    code, report, err = _env_report(program, options)
    # Installing helps only when every missing need has a step: with a problem left, say why.
    if (code == 1 and report is not None and not report.get("problems")
            and os.environ.get("EXTDEPS_INSTALL") in ("1", "sudo")):
        _install(program, options, report)
        code, report, err = _env_report(program, options)
    if code == 0 and report is not None:
        for w in report.get("warnings", []):
            _say("warning: " + w)
        return report.get("variables", [])
    if code == 1 and report is not None:
        _fail_missing(program, options, report)
    raise ExternalDependencyError(
        "extdeps_backend: extdeps could not check this project's [external] needs (exit %d):\n%s"
        % (code, err.rstrip()))


@contextlib.contextmanager
def _exported(variables):
    """The variables in os.environ while the real backend runs: search paths before what was
    set, values instead of it; as they were afterwards."""
    saved = {}
    try:
        for v in variables:
            name = v.get("name")
            if not name:
                continue
            saved.setdefault(name, os.environ.get(name))
            if v.get("kind") == "path-list":
                entries = list(v.get("entries", []))
                old = os.environ.get(name)
                # What was set stays after the entries, without the ones now in front.
                rest = [e for e in old.split(os.pathsep) if e not in entries] if old else []
                os.environ[name] = os.pathsep.join(entries + rest)
            else:
                os.environ[name] = v.get("value", "")
        yield
    finally:
        for name, old in saved.items():
            if old is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = old


def _own_settings_removed(config_settings):
    if not config_settings:
        return config_settings
    return {k: v for k, v in config_settings.items() if k not in (_SETTING_OPTIONAL, _SETTING_MANAGER)}


def _guarded(hook_name):
    real = getattr(_real_backend(), hook_name)  # AttributeError: the real backend lacks it

    def hook(*args, **kwargs):
        config_settings = kwargs.get("config_settings")
        if config_settings is None and len(args) > 1:
            config_settings = args[1]
        variables = _ensure_met(config_settings)
        if "config_settings" in kwargs:
            kwargs["config_settings"] = _own_settings_removed(kwargs["config_settings"])
        elif len(args) > 1:
            args = (args[0], _own_settings_removed(args[1])) + tuple(args[2:])
        with _exported(variables):
            return real(*args, **kwargs)

    hook.__name__ = hook_name
    hook.__doc__ = "%s of the real backend, once extdeps says every build and host need is met" % hook_name
    return hook


# --- Core Metadata 2.6 (PEP 725, a Draft), opt-in: [tool.extdeps] external-metadata = true -----

def _external_metadata_fields():
    """The header lines PEP 725 asks for: Requires-External-Dep for [external].dependencies,
    Provides-External-Extra and marked Requires-External-Dep lines for optional-dependencies."""
    data = _read_pyproject()
    external = data.get("external")
    if external is None and "tool" in data and set(data) == {"tool"}:
        # No TOML reader (Python < 3.11 without tomli): the fields cannot be read, say so.
        _say("warning: no TOML reader here; Requires-External-Dep is not added to the metadata")
        return []
    if not isinstance(external, dict):
        return []
    lines = []
    for spec in external.get("dependencies", []) or []:
        lines.append("Requires-External-Dep: " + str(spec).strip())
    optional = external.get("optional-dependencies", {}) or {}
    for extra in optional:
        lines.append("Provides-External-Extra: " + extra)
        for spec in optional[extra] or []:
            dep, sep, marker = str(spec).partition(";")
            marker = marker.strip()
            condition = "extra == '%s'" % extra
            if sep and marker:
                condition = "(%s) and %s" % (marker, condition)
            lines.append("Requires-External-Dep: %s; %s" % (dep.strip(), condition))
    return lines


def _version_tuple(text):
    try:
        return tuple(int(p) for p in text.strip().split("."))
    except ValueError:
        return (0,)


def _with_external_fields(metadata, fields):
    """METADATA text with the fields added at the end of its headers and Metadata-Version raised
    to 2.6; fields it already has are not repeated."""
    head, sep, body = metadata.partition("\n\n")
    lines = head.split("\n")
    out = []
    for line in lines:
        name, colon, value = line.partition(":")
        if colon and name.strip().lower() == "metadata-version" and _version_tuple(value) < (2, 6):
            line = "Metadata-Version: 2.6"
        out.append(line)
    out += [f for f in fields if f not in lines]
    return "\n".join(out) + (sep + body if sep else "\n")


def _record_hash(data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode("ascii")
    return "sha256=" + digest


def _add_to_wheel(path, fields):
    """Rewrites the wheel at path with the fields in its METADATA and RECORD updated to match."""
    with zipfile.ZipFile(path) as zin:
        names = zin.namelist()
        metadata_name = next((n for n in names if n.count("/") == 1 and n.endswith(".dist-info/METADATA")), None)
        if metadata_name is None:
            raise ExternalDependencyError("extdeps_backend: %s has no .dist-info/METADATA" % path)
        record_name = metadata_name[:-len("METADATA")] + "RECORD"
        metadata = _with_external_fields(zin.read(metadata_name).decode("utf-8"), fields).encode("utf-8")
        fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path) or ".", suffix=".whl")
        os.close(fd)
        try:
            with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as zout:
                for info in zin.infolist():
                    data = zin.read(info.filename)
                    if info.filename == metadata_name:
                        data = metadata
                    elif info.filename == record_name:
                        rows = []
                        for row in data.decode("utf-8").splitlines():
                            if row.split(",", 1)[0] == metadata_name:
                                row = "%s,%s,%d" % (metadata_name, _record_hash(metadata), len(metadata))
                            rows.append(row)
                        data = ("\n".join(rows) + "\n").encode("utf-8")
                    zout.writestr(info, data)
            os.replace(tmp, path)
        except BaseException:
            os.unlink(tmp)
            raise


def _with_metadata(hook_name, real):
    """A hook whose result (a wheel's file name, or a .dist-info folder's) gets the fields."""
    def hook(*args, **kwargs):
        result = real(*args, **kwargs)
        fields = _external_metadata_fields()
        if not fields:
            return result
        prepares = hook_name.startswith("prepare_metadata_")
        key = "metadata_directory" if prepares else "wheel_directory"
        directory = args[0] if args else kwargs.get(key, ".")
        target = os.path.join(directory, result)
        if prepares:
            metadata_path = os.path.join(target, "METADATA")
            with open(metadata_path, encoding="utf-8") as f:
                text = f.read()
            with open(metadata_path, "w", encoding="utf-8") as f:
                f.write(_with_external_fields(text, fields))
        else:
            _add_to_wheel(target, fields)
        return result

    hook.__name__ = hook_name
    hook.__doc__ = real.__doc__
    return hook


# build_sdist is not among them: an sdist compiles nothing, so nothing native is checked for it.
_GUARDED = ("build_wheel", "build_editable")
_WHEELS = ("build_wheel", "build_editable", "prepare_metadata_for_build_wheel",
           "prepare_metadata_for_build_editable")


def __getattr__(name):
    """PEP 562: every hook is the real backend's; the two that build a wheel check first, and,
    where [tool.extdeps] external-metadata = true, what builds a wheel or its metadata adds the
    external fields. A hook the real backend lacks is missing here too, so frontends fall back as
    PEP 517 says."""
    if name.startswith("__"):
        raise AttributeError(name)
    hook = _guarded(name) if name in _GUARDED else getattr(_real_backend(), name)
    # Wrapped only where there is something to add: otherwise the real hook itself.
    if name in _WHEELS and _tool_flag("external-metadata") and _external_metadata_fields():
        hook = _with_metadata(name, hook)
    return hook
