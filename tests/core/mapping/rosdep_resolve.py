#!/usr/bin/env python3
"""Resolves every key of a rosdep YAML file for one OS release with rosdep itself (Debian's
python3-rosdep2), for tests/core/mapping/rosdep_import_test.cc.

rosdep reads its tables through a sources list and a cache that `rosdep update` fills. Here the
sources list names the given file (file:// URL) and the rosdistro index is an empty local one,
so `rosdep update` runs without a network, into a temporary ROS_HOME. Each key is then resolved
the way `rosdep resolve` does it (main.py command_resolve), one key at a time so that a key
without a rule for the OS does not stop the rest.

usage: rosdep_resolve.py FILE OS_NAME OS_VERSION WORKDIR
prints JSON: {"<key>": {"installer": "apt", "packages": [...]} | {"error": "<why>"}}
"""
import json
import os
import subprocess
import sys


def main():
    path, os_name, os_version, work = sys.argv[1:5]
    sources = os.path.join(work, "sources.list.d")
    os.makedirs(sources, exist_ok=True)
    with open(os.path.join(sources, "50-test.list"), "w") as f:
        f.write("yaml file://%s\n" % os.path.abspath(path))
    index = os.path.join(work, "index-v4.yaml")
    with open(index, "w") as f:
        f.write("%YAML 1.1\n---\ndistributions: {}\ntype: index\nversion: 4\n")
    env = dict(os.environ)
    env.update({
        "ROSDEP_SOURCE_PATH": sources,
        "ROS_HOME": os.path.join(work, "ros"),
        "ROSDISTRO_INDEX_URL": "file://" + index,
        # rosdep picks an OS's default installer by the OS it detects (fedora's is dnf from 22
        # on, yum before): the OS asked for, not this machine's.
        "ROS_OS_OVERRIDE": "%s:%s" % (os_name, os_version),
    })
    os.environ.update(env)
    subprocess.run([sys.executable, "-c", "from rosdep2.main import rosdep_main; rosdep_main(['update'])"],
                   env=env, check=True, stdout=subprocess.DEVNULL)

    from rosdep2 import create_default_installer_context
    from rosdep2.lookup import RosdepLookup, ResolutionError
    from rosdep2.rospkg_loader import DEFAULT_VIEW_KEY
    from rosdep2.sources_list import SourcesListLoader

    loader = SourcesListLoader.create_default(sources_cache_dir=os.path.join(work, "ros", "rosdep", "sources.cache"))
    lookup = RosdepLookup.create_from_rospkg(sources_loader=loader)
    context = create_default_installer_context()
    keys = context.get_os_installer_keys(os_name)
    default = context.get_default_os_installer_key(os_name)
    view = lookup.get_rosdep_view(DEFAULT_VIEW_KEY)
    out = {}
    for key in view.keys():
        try:
            installer, rule = view.lookup(key).get_rule_for_platform(os_name, os_version, keys, default)
            packages = context.get_installer(installer).resolve(rule)
            out[key] = {"installer": installer, "packages": [str(p) for p in packages]}
        except ResolutionError as e:
            out[key] = {"error": str(e.args[-1]) if e.args else "unresolved"}
        except Exception as e:  # InvalidData and the like: rosdep cannot use the rule
            out[key] = {"error": "%s: %s" % (type(e).__name__, e)}
    json.dump(out, sys.stdout, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
