#!/usr/bin/env python3
"""Writes tests/data/apt/major-versions/: the libraries bookworm ships in two maintained major
versions under one id (FUSE 3 and 2, libusb 1.0 and 0.1), their -dev and shared-library packages
and the dependency closure of each, copied byte for byte from this machine's bookworm main list
(run_guess_fixture.write_fixture). Run from the repository root on a Debian 12 machine whose lists
are current; see tests/data/apt/README.md.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run_guess_fixture  # noqa: E402

PACKAGES = ["libfuse3-dev", "libfuse3-3", "libfuse-dev", "libfuse2", "libusb-1.0-0-dev", "libusb-1.0-0",
            "libusb-dev", "libusb-0.1-4"]

if __name__ == "__main__":
    kept, seen = run_guess_fixture.write_fixture("tests/data/apt/major-versions", set(PACKAGES), PACKAGES)
    print(f"{len(kept)} stanzas: the closure of {len(PACKAGES)} packages")
