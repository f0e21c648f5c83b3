#!/usr/bin/env python3
"""Rebuilds conda-forge-outputs.txt: the conda-forge package names mappings/conda-forge.toml
uses that conda-forge registers as the output of a feedstock.

usage: trim_feedstock_outputs.py FEEDSTOCK_OUTPUTS_GIT_DIR
  (a clone of github.com/conda-forge/feedstock-outputs: outputs/<a>/<b>/<c>/<NAME>.json per
  output, {"feedstocks": [...]}; every package uploaded to conda-forge must be registered there)

The names are copied as the registry spells them; only the choice is ours: those the table
names. Run from the repository root.
"""
import subprocess
import sys
import tomllib

OUT = "tests/data/mapping/indexes/conda-forge-outputs.txt"
CATEGORIES = ("build", "host", "run")


def table_names(path):
    names = set()
    with open(path, "rb") as f:
        table = tomllib.load(f)
    for e in table["id"]:
        parts = e.get("alternative", [e])
        for r in e.get("release", {}).values():
            parts = parts + r.get("alternative", [r])
        for a in parts:
            for c in CATEGORIES:
                names.update(a.get(c, []))
    return names


def main():
    git = sys.argv[1]
    head = subprocess.run(["git", "-C", git, "log", "-1", "--format=%H %cs"], capture_output=True, text=True,
                          check=True).stdout.split()
    files = subprocess.run(["git", "-C", git, "ls-tree", "-r", "--name-only", "HEAD", "outputs/"],
                           capture_output=True, text=True, check=True).stdout.split()
    outputs = {f.rsplit("/", 1)[1][:-len(".json")] for f in files if f.endswith(".json")}
    kept = sorted(table_names("mappings/conda-forge.toml") & outputs)
    with open(OUT, "w", encoding="utf-8") as out:
        out.write(f"# conda-forge/feedstock-outputs @ {head[0]} ({head[1]}): of its {len(outputs)} registered\n")
        out.write("# outputs (outputs/**/NAME.json), those mappings/conda-forge.toml names.\n")
        out.write("# Rebuilt by trim_feedstock_outputs.py.\n")
        for n in kept:
            out.write(n + "\n")
    print(OUT, len(kept), "names of", len(outputs))


main()
