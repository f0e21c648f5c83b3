#!/usr/bin/env python3
"""How `extdeps resolve` grows: with the number of needs, and with the size of the index.

    bench/growth.py [-x BIN] [-o OUT] [--needs 10,100,1000] [--records 10000,60000,300000,1000000]
                    [-n RUNS] [-c COLD_RUNS] [--png FILE] [--no-plot]

Needs: declarations of N needs made from the ids of mappings/debian.toml (every id with a build
or host mapping, taken evenly spread over the sorted ids, as host-requires), resolved with
--manager apt against this machine's apt lists.

Index size: bench/gen-conda-channel.py channels of about R records, each resolving
bench/conda-ten-deps with --manager conda (CONDA_SUBDIR=linux-64, the channel by file://).

Each case runs cold (its cache folder removed before every run) and warm (the folder kept, two
runs first to fill it); the median wall time and the largest peak RSS of the runs are kept.
Writes OUT/growth.tsv, OUT/growth.md (the tables) and, unless --no-plot, a PNG drawn by gnuplot
(OUT/growth.png, or --png FILE). A benchmark, not a test: nothing here is checked but that each
run exits 0 or 1 (1: a plan that cannot meet every need, which some of the generated
declarations are) and that the plan names each need. Python 3 standard library and gnuplot.
"""

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import tomllib

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run_once(cmd, env):
    t0 = time.perf_counter_ns()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    _, status, ru = os.wait4(p.pid, 0)
    t1 = time.perf_counter_ns()
    err = p.stderr.read().decode(errors="replace")
    p.stderr.close()
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1):
        sys.exit("growth.py: %s exited %d:\n%s" % (" ".join(cmd), code, err[-2000:]))
    return (t1 - t0) / 1e6, ru.ru_maxrss / 1024.0


def measure(cmd, cache, runs, cold_runs, env):
    """(cold median ms, cold peak MB, warm median ms, warm peak MB)"""
    cold, cold_rss = [], 0.0
    for _ in range(cold_runs):
        shutil.rmtree(cache, ignore_errors=True)
        ms, rss = run_once(cmd + ["--cache-dir", cache], env)
        cold.append(ms)
        cold_rss = max(cold_rss, rss)
    for _ in range(2):
        run_once(cmd + ["--cache-dir", cache], env)
    warm, warm_rss = [], 0.0
    for _ in range(runs):
        ms, rss = run_once(cmd + ["--cache-dir", cache], env)
        warm.append(ms)
        warm_rss = max(warm_rss, rss)
    return statistics.median(cold), cold_rss, statistics.median(warm), warm_rss


def mapped_ids():
    with open(os.path.join(REPO, "mappings", "debian.toml"), "rb") as f:
        table = tomllib.load(f)
    ids = sorted(e["id"] for e in table.get("id", []) if "host" in e or "build" in e)
    return ids


def write_declaration(path, ids):
    os.makedirs(path, exist_ok=True)
    with open(os.path.join(path, "pyproject.toml"), "w") as f:
        f.write("# Written by bench/growth.py: %d ids of mappings/debian.toml.\n" % len(ids))
        f.write('[project]\nname = "growth-%d"\nversion = "0"\n\n[external]\nhost-requires = [\n' % len(ids))
        for i in ids:
            f.write('  "%s",\n' % i)
        f.write("]\n")


def check_plan(cmd, env, n):
    out = subprocess.run(cmd + ["--json", "--no-cache"], env=env, capture_output=True, text=True)
    if out.returncode not in (0, 1):
        sys.exit("growth.py: %s --json exited %d:\n%s" % (" ".join(cmd), out.returncode, out.stderr[-2000:]))
    import json
    plan = json.loads(out.stdout)
    if len(plan.get("requirements", [])) != n:
        sys.exit("growth.py: the plan of %d needs names %d" % (n, len(plan.get("requirements", []))))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-x", "--extdeps", default=os.environ.get("EXTDEPS", ""))
    ap.add_argument("-o", "--out", default="")
    ap.add_argument("--needs", default="10,100,1000")
    ap.add_argument("--records", default="10000,60000,300000,1000000")
    ap.add_argument("-n", "--runs", type=int, default=20)
    ap.add_argument("-c", "--cold-runs", type=int, default=5)
    ap.add_argument("--png", default="")
    ap.add_argument("--no-plot", action="store_true")
    a = ap.parse_args()
    binary = a.extdeps
    if not binary:
        for b in ("build-bench/extdeps", "build/extdeps"):
            if os.access(os.path.join(REPO, b), os.X_OK):
                binary = os.path.join(REPO, b)
                break
    if not binary or not os.access(binary, os.X_OK):
        sys.exit("growth.py: no extdeps binary (build it, or pass -x)")
    binary = os.path.abspath(binary)
    out = os.path.abspath(a.out or tempfile.mkdtemp(prefix="extdeps-growth."))
    os.makedirs(out, exist_ok=True)
    env = dict(os.environ)
    rows = []  # (axis, size, cold ms, cold MB, warm ms, warm MB)

    needs = [int(x) for x in a.needs.split(",") if x]
    if needs:
        ids = mapped_ids()
        for n in needs:
            if n > len(ids):
                sys.exit("growth.py: %d needs asked, debian.toml maps %d ids" % (n, len(ids)))
            step = len(ids) / n
            chosen = [ids[int(i * step)] for i in range(n)]
            decl = os.path.join(out, "needs-%d" % n)
            write_declaration(decl, chosen)
            cmd = [binary, "resolve", decl, "--manager", "apt"]
            check_plan(cmd, env, n)
            r = measure(cmd, os.path.join(out, "cache-needs-%d" % n), a.runs, a.cold_runs, env)
            rows.append(("needs", n) + r)
            print("needs %7d: cold %8.1f ms %6.0f MB, warm %7.1f ms %6.0f MB" % ((n,) + r), flush=True)

    records = [int(x) for x in a.records.split(",") if x]
    for r_count in records:
        channel = os.path.join(out, "conda-%d" % r_count)
        if not os.path.isdir(os.path.join(channel, "noarch")):
            subprocess.run([sys.executable, os.path.join(REPO, "bench", "gen-conda-channel.py"), channel,
                            "--records", str(r_count)], check=True, stdout=subprocess.DEVNULL)
        cenv = dict(env, CONDA_SUBDIR="linux-64")
        cmd = [binary, "resolve", os.path.join(REPO, "bench", "conda-ten-deps"), "--manager", "conda",
               "--channel", "file://" + channel]
        check_plan(cmd, cenv, 10)
        r = measure(cmd, os.path.join(out, "cache-conda-%d" % r_count), a.runs, a.cold_runs, cenv)
        rows.append(("records", r_count) + r)
        print("records %7d: cold %8.1f ms %6.0f MB, warm %7.1f ms %6.0f MB" % ((r_count,) + r), flush=True)

    with open(os.path.join(out, "growth.tsv"), "w") as f:
        f.write("axis\tsize\tcold_ms\tcold_peak_mb\twarm_ms\twarm_peak_mb\n")
        for row in rows:
            f.write("%s\t%d\t%.2f\t%.1f\t%.2f\t%.1f\n" % row)
    with open(os.path.join(out, "growth.md"), "w") as f:
        for axis, title in (("needs", "needs (apt, this machine's bookworm lists)"),
                            ("records", "conda channel records (bench/conda-ten-deps)")):
            some = [r for r in rows if r[0] == axis]
            if not some:
                continue
            f.write("| %s | cold ms | cold peak MB | warm ms | warm peak MB |\n|---:|---:|---:|---:|---:|\n" % title)
            for row in some:
                f.write("| %d | %.1f | %.0f | %.1f | %.0f |\n" % row[1:])
            f.write("\n")
    print(open(os.path.join(out, "growth.md")).read())

    if a.no_plot or not rows:
        return
    if not shutil.which("gnuplot"):
        sys.exit("growth.py: gnuplot is needed for the plot (apt-get install gnuplot-nox), or pass --no-plot")
    png = os.path.abspath(a.png or os.path.join(out, "growth.png"))
    data = {}
    for axis in ("needs", "records"):
        path = os.path.join(out, "growth-%s.dat" % axis)
        with open(path, "w") as f:
            for row in rows:
                if row[0] == axis:
                    f.write("%d %.3f %.3f\n" % (row[1], row[2], row[4]))
        data[axis] = path
    script = """set terminal pngcairo size 1100,450 font ",10"
set output '%(png)s'
set multiplot layout 1,2 title "extdeps resolve: median wall time (%(machine)s)"
set logscale xy
set grid
set key top left
set ylabel "ms"
set xlabel "needs (apt, bookworm lists)"
plot '%(needs)s' using 1:2 with linespoints title "cold", '' using 1:3 with linespoints title "warm"
set xlabel "conda channel records (ten needs)"
plot '%(records)s' using 1:2 with linespoints title "cold", '' using 1:3 with linespoints title "warm"
unset multiplot
""" % {"png": png, "needs": data["needs"], "records": data["records"],
       "machine": "%d cores" % os.cpu_count()}
    subprocess.run(["gnuplot"], input=script, text=True, check=True)
    print("plot: " + png)


if __name__ == "__main__":
    main()
