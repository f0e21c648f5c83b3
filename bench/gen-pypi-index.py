#!/usr/bin/env python3
"""Writes a PEP 691 simple repository shaped like PyPI's NVIDIA CUDA projects, for the pypi
benchmark (bench/run.sh --pypi DIR). Deterministic: the same arguments write the same bytes.

usage: gen-pypi-index.py OUT

OUT/simple/<project>/index.json   PEP 691 pages (relative file URLs, core-metadata keys)
OUT/packages/<wheel>.metadata     PEP 658 metadata of every wheel

The projects are the ones `dep:generic/cudart`, `dep:generic/cublas` and `dep:generic/cudnn`
map to in mappings/pypi.toml (CUDA 11, 12 and 13 names) and what their metadata names, with
release histories of the size PyPI has (CUDA 12: a dozen minor releases, two or three updates
each; cuDNN: 8.x and 9.x), each release with x86_64, aarch64 and Windows wheels.
"""
import argparse
import json
import os

CUDA12 = [(1, [105]), (2, [53, 128, 140]), (3, [52, 101]), (4, [99, 127]), (5, [39, 82]),
          (6, [37, 68, 77]), (8, [57, 90]), (9, [37, 79])]
CUDA11 = [(7, [60, 99]), (8, [89])]
CUDA13 = [(0, [48, 88, 96]), (1, [80])]


def cuda_versions(major, minors):
    return [f"{major}.{m}.{p}" for m, ps in minors for p in ps]


def wheels(project, version, tags):
    dist = project.replace("-", "_")
    return [f"{dist}-{version}-py3-none-{t}.whl" for t in tags]


TAGS_OLD = ["manylinux1_x86_64", "win_amd64"]
TAGS_2014 = ["manylinux2014_aarch64", "manylinux2014_x86_64", "win_amd64"]
TAGS_2014C = ["manylinux2014_aarch64.manylinux_2_17_aarch64", "manylinux2014_x86_64.manylinux_2_17_x86_64", "win_amd64"]
TAGS_227 = ["manylinux_2_27_aarch64", "manylinux_2_27_x86_64", "win_amd64"]


def tags_for(version):
    major, minor = (int(x) for x in version.split(".")[:2])
    if major == 11 or (major == 12 and minor <= 1):
        return TAGS_OLD
    if major == 12 and minor < 6:
        return TAGS_2014
    if major == 12:
        return TAGS_2014C
    return TAGS_227


def metadata(name, version, summary, requires):
    lines = ["Metadata-Version: 2.1", f"Name: {name}", f"Version: {version}", f"Summary: {summary}",
             "Home-page: https://developer.nvidia.com/cuda-zone", "Author: Nvidia CUDA Installer Team",
             "Author-email: cuda_installer@nvidia.com", "License: NVIDIA Proprietary Software",
             "Classifier: Programming Language :: Python :: 3", "Classifier: Operating System :: POSIX :: Linux",
             "Requires-Python: >=3", "License-File: License.txt"]
    lines += [f"Requires-Dist: {r}" for r in requires]
    return "\n".join(lines) + "\n\n" + summary + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out", metavar="OUT", help="folder to write (simple/ and packages/ under it)")
    out = ap.parse_args().out
    os.makedirs(f"{out}/packages", exist_ok=True)
    projects = {}

    def add(project, version, summary, requires=(), tags=None):
        files = projects.setdefault(project, [])
        for fn in wheels(project, version, tags or tags_for(version)):
            digest = "%064x" % (sum(map(ord, fn)) * 7919)  # a placeholder: nothing downloads the wheels
            files.append({"filename": fn, "url": f"../../packages/{fn}", "hashes": {"sha256": digest},
                          "requires-python": ">=3", "core-metadata": {"sha256": digest},
                          "data-dist-info-metadata": {"sha256": digest}, "yanked": False})
            with open(f"{out}/packages/{fn}.metadata", "w") as f:
                f.write(metadata(project, version, summary, requires))

    for suffix, major, minors in (("-cu11", 11, CUDA11), ("-cu12", 12, CUDA12), ("", 13, CUDA13)):
        for v in cuda_versions(major, minors):
            add("nvidia-cuda-runtime" + suffix, v, "CUDA Runtime native Libraries")
            m = v.split(".")
            blas = f"{m[0]}.{m[1]}.{int(m[2]) % 7 + 1}.{int(m[2]) * 3 % 17 + 1}" if major != 11 else f"11.{int(m[1]) + 3}.3.6"
            add("nvidia-cublas" + suffix, blas, "CUBLAS native runtime libraries", tags=tags_for(v))
    cudnn = {"-cu11": ["8.5.0.96", "8.6.0.163", "8.9.4.25", "9.0.0.312", "9.1.0.70"],
             "-cu12": ["8.9.2.26", "8.9.7.29", "9.0.0.312", "9.1.0.70", "9.1.1.17", "9.2.1.18", "9.3.0.75",
                       "9.5.1.17", "9.6.0.74", "9.7.1.26", "9.8.0.87", "9.10.2.21"],
             "-cu13": ["9.13.0.50", "9.14.0.64"]}
    blas_of = {"-cu11": "nvidia-cublas-cu11", "-cu12": "nvidia-cublas-cu12", "-cu13": "nvidia-cublas"}
    for suffix, versions in cudnn.items():
        for v in versions:
            tags = TAGS_OLD if v.startswith("8") else TAGS_227 if suffix == "-cu13" else TAGS_2014
            add("nvidia-cudnn" + suffix, v, "cuDNN runtime libraries", [blas_of[suffix]], tags)

    for project, files in projects.items():
        os.makedirs(f"{out}/simple/{project}", exist_ok=True)
        versions = sorted({f["filename"].split("-")[1] for f in files})
        page = {"meta": {"api-version": "1.1", "_last-serial": 25000000 + len(files)}, "name": project,
                "files": files, "versions": versions}
        with open(f"{out}/simple/{project}/index.json", "w") as f:
            json.dump(page, f, indent=1, sort_keys=True)
    n = sum(len(f) for f in projects.values())
    print(f"{len(projects)} projects, {n} wheels, {sum(len(set(x['filename'].split('-')[1] for x in f)) for f in projects.values())} releases")


if __name__ == "__main__":
    main()
