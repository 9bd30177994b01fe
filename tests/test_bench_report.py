#!/usr/bin/env python3
"""tests/benchmarks/bench_report.py (the report half of scripts/bench) run as scripts/bench
runs it, on small Google Benchmark JSON files written here, whose numbers are chosen so that
every ratio, target verdict and count the report prints is known:
- table: suite/KDL ratios (medians, or the paired timings where they exist), float/KDL ratios,
  a noisy time marked *, the O(n^2) inverse's targets and per-entry cost, the crossover, the
  ridim throughput and memory rows, the rfdsim cost model, and "Targets met: 7 of 11.";
- race: the fastest peer, the ratio and its verdict, ns formatting, the trees' and the
  floating-base trees' targets (1.2 against Pinocchio; none for a quantity timed for the record);
- variants: one column per build, bold below the target, the fastest peer's letter, the count
  of targets missed;
- bad usage prints the usage and fails.

  test_bench_report.py BENCH_REPORT
"""
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
import script_checks  # noqa: E402
from script_checks import check, run  # noqa: E402

bench_report = sys.argv[1]


def median(name, ns, unit="ns", cv=0.02):
    """Google Benchmark's median and cv aggregates of one benchmark."""
    return [{"name": name + "_median", "run_name": name, "run_type": "aggregate",
             "aggregate_name": "median", "cpu_time": ns, "time_unit": unit},
            {"name": name + "_cv", "run_name": name, "run_type": "aggregate",
             "aggregate_name": "cv", "cpu_time": cv, "time_unit": unit}]


def iteration(name, **counters):
    return dict({"name": name + "/manual_time", "run_name": name, "run_type": "iteration"},
                **counters)


def write(path, benchmarks):
    with open(path, "w") as f:
        json.dump({"context": {}, "benchmarks": benchmarks}, f)
    return path


def row_of(text, first_cells):
    """The cells of the first table row that starts with first_cells."""
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if cells[:len(first_cells)] == first_cells:
            return cells
    check(False, f"no row {first_cells}")
    return [""] * 12


def table_inputs(tmp):
    main = write(os.path.join(tmp, "main.json"), sum([
        median("suite/id/double/stanford", 250), median("suite/id/float/stanford", 200, cv=0.2),
        median("kdl/id/stanford", 1000),
        median("suite/gim/double/stanford", 0.6, "us"), median("kdl/gim/stanford", 2000),
        median("suite/fd_udu/double/stanford", 700)], []))
    pairs = write(os.path.join(tmp, "pairs.json"), [
        iteration("pair/fd_udu/stanford", suite_ns=400, kdl_ns=1000, ratio=0.41),
        iteration("pair/inv/n:24", udu_ns=1200, cholesky_ns=2400, ratio=0.5, udu_min_ns=1152),
        iteration("pair/inv/n:1000", udu_ns=2.3e6, cholesky_ns=5.75e7, ratio=0.04,
                  udu_min_ns=2.2e6)])
    cross = write(os.path.join(tmp, "cross.json"), sum([
        median("crossover/fd_udu/n:2", 100), median("crossover/fd_chol/n:2", 80),
        median("crossover/fd_udu/n:4", 150), median("crossover/fd_chol/n:4", 160),
        median("crossover/fd_udu/n:8", 250), median("crossover/fd_chol/n:8", 400)], []))
    thr = os.path.join(tmp, "throughput.json")
    with open(thr, "w") as f:
        json.dump({"ridim_1000000": {"rows": 1000000, "wall_s": 1.6, "walls_s": [1.5, 1.6, 1.7],
                                     "input_bytes": 2.5e8, "max_rss_kib": 5000},
                   "ridim_100000": {"rows": 100000, "wall_s": 0.16, "walls_s": [0.16],
                                    "input_bytes": 2.5e7, "max_rss_kib": 4900},
                   "rfdsim": {"full": {"evaluations": 10000, "wall_s": 0.010, "stats": "steps 1"},
                              "two_rows": {"wall_s": 0.007}, "startup": {"wall_s": 0.002}}}, f)
    return [main, pairs, cross, thr]


def check_table(tmp):
    r = run([sys.executable, bench_report, "table", *table_inputs(tmp)])
    check(r.returncode == 0, f"table: exit {r.returncode}: {r.stderr}")
    out = r.stdout
    # suite/KDL 250/1000 within 0.32; float 200/1000, its cv 20% marked *.
    cells = row_of(out, ["inverse dynamics (KDL: ChainIdSolver_RNE::CartToJnt)", "Stanford arm"])
    check(cells[2:9] == ["250", "1,000", "0.250", "≤ 0.32", "yes", "200*", "0.200"],
          f"inverse dynamics row {cells}")
    # 0.6 us = 600 ns against 2000: 0.300 misses 0.27.
    cells = row_of(out, ["GIM (KDL: ChainDynParam::JntToMass)", "Stanford arm"])
    check(cells[2:7] == ["600", "2,000", "0.300", "≤ 0.27", "**no**"], f"GIM row {cells}")
    # The paired timing replaces the medians: 400/1000 reported as the pair's 0.41.
    cells = row_of(out, ["forward dynamics O(n), UDU^T (KDL: ChainHdSolver_Vereshchagin, "
                         "0 constraints)", "Stanford arm"])
    check(cells[2:7] == ["400", "1,000", "0.410", "≤ 0.35", "**no**"], f"FD row {cells}")
    cells = row_of(out, ["inverse GIM O(n^2)", "chain n = 24"])
    check(cells[4:7] == ["0.500", "≤ 0.750", "yes"], f"inverse n = 24 row {cells}")
    cells = row_of(out, ["inverse GIM O(n^2): ns per entry (time / n^2), fastest round"])
    check(cells[2] == "2.00, 2.20 (x1.10)" and cells[6] == "yes", f"per-entry row {cells}")
    check("from n = 4 on (first faster at n = 4)" in out, "crossover n")
    for n, ratio, faster in ((2, "0.800", "cholesky"), (4, "1.067", "udu"), (8, "1.600", "udu")):
        cells = row_of(out, [str(n)])
        check(cells[3:5] == [ratio, faster], f"crossover row n = {n}: {cells}")
    cells = row_of(out, ["ridim throughput, Stanford arm, CSV in and out (250 MB in)"])
    check(cells[2].startswith("625,000 rows/s") and cells[6] == "yes", f"throughput {cells}")
    cells = row_of(out, ["ridim peak memory (max RSS)"])
    check(cells[2] == "4,900 KiB vs 5,000 KiB (x1.020)" and cells[6] == "yes", f"RSS {cells}")
    # (10 - 2) ms against 10000 x 400 ns + (10 - 7) ms of writing.
    cells = row_of(out, ["rfdsim wall time vs evaluations x FD cost + output writing"])
    check(cells[4] == "1.143 (with start-up: 1.429)" and cells[6] == "yes", f"rfdsim {cells}")
    check("Targets met: 7 of 11." in out, "targets met")


def race_file(tmp, name, id_ratio, fd_ratio):
    return write(os.path.join(tmp, name), [
        iteration("race/id/stanford", suite_ns=100, rbdl_ns=150, pinocchio_ns=130,
                  pinocchio_world_ns=140, best_ratio=id_ratio),
        iteration("race/fd/n:6", suite_ns=50.5, rbdl_ns=60, best_ratio=fd_ratio),
        iteration("race/chol/simple_humanoid", suite_ns=80, pinocchio_ns=90,
                  pinocchio_world_ns=92, best_ratio=1.125),
        iteration("race/fd/solo12_floating", suite_ns=400, pinocchio_ns=500,
                  pinocchio_world_ns=520, best_ratio=1.25),
        iteration("race/chol/solo12_floating", suite_ns=200, pinocchio_ns=180,
                  pinocchio_world_ns=190, best_ratio=0.9)])


def check_race(tmp):
    r = run([sys.executable, bench_report, "race", race_file(tmp, "a.json", 1.3, 1.1)])
    check(r.returncode == 0, f"race: exit {r.returncode}: {r.stderr}")
    cells = row_of(r.stdout, ["inverse dynamics", "Stanford arm"])
    check(cells[2:10] == ["100", "150", "130", "140", "Pinocchio LOCAL", "1.30", "1.3", "yes"],
          f"race id row {cells}")
    cells = row_of(r.stdout, ["forward dynamics O(n)", "chain n = 6"])
    check(cells[2:10] == ["50.5", "60.0", "—", "—", "RBDL", "1.10", "1.3", "**no**"],
          f"race fd row {cells}")
    # A tree: its own target (1.2 against Pinocchio), which the chains' Cholesky route lacks.
    cells = row_of(r.stdout, ["sparse Cholesky of the inertia matrix (against cholesky::decompose)",
                              "simple humanoid (tree, 29 joints)"])
    check(cells[2:10] == ["80.0", "—", "90.0", "92.0", "Pinocchio LOCAL", "1.12", "1.2", "**no**"],
          f"race tree row {cells}")
    # A floating-base tree: aba at 1.2 against Pinocchio's free-flyer; its factorisation for the
    # record (no target), after the fixed-base trees.
    cells = row_of(r.stdout, ["forward dynamics O(n)",
                              "Solo 12 quadruped, floating base (6 + 12 rates)"])
    check(cells[2:10] == ["400", "—", "500", "520", "Pinocchio LOCAL", "1.25", "1.2", "yes"],
          f"race floating fd row {cells}")
    cells = row_of(r.stdout, ["sparse Cholesky of the inertia matrix (against cholesky::decompose)",
                              "Solo 12 quadruped, floating base (6 + 12 rates)"])
    check(cells[7:10] == ["0.90", "—", "—"], f"race floating chol row {cells}")
    lines = r.stdout.splitlines()
    fd_models = [line.split("|")[2].strip() for line in lines
                 if line.startswith("| forward dynamics O(n) |")]
    check(fd_models == ["chain n = 6", "Solo 12 quadruped, floating base (6 + 12 rates)"],
          f"race fd rows in order {fd_models}")
    r = run([sys.executable, bench_report, "variants", "gcc=" + os.path.join(tmp, "a.json"),
             "clang=" + race_file(tmp, "b.json", 1.35, 1.31)])
    check(r.returncode == 0, f"variants: exit {r.returncode}: {r.stderr}")
    check(row_of(r.stdout, ["quantity", "model"])[2:4] == ["gcc", "clang"], "variants columns")
    cells = row_of(r.stdout, ["forward dynamics O(n)", "chain n = 6"])
    check(cells[2:5] == ["**1.100** (R)", "1.310 (R)", "1.3"], f"variants fd row {cells}")
    cells = row_of(r.stdout, ["inverse dynamics", "Stanford arm"])
    check(cells[2:4] == ["1.300 (P)", "1.350 (P)"], f"variants id row {cells}")
    cells = row_of(r.stdout, ["forward dynamics O(n)",
                              "Solo 12 quadruped, floating base (6 + 12 rates)"])
    check(cells[2:5] == ["1.250 (P)", "1.250 (P)", "1.2"], f"variants floating fd row {cells}")
    check("Targets missed: 3." in r.stdout, "variants: targets missed")


with tempfile.TemporaryDirectory() as tmp:
    check_table(tmp)
    check_race(tmp)
    r = run([sys.executable, bench_report, "race"])
    check(r.returncode != 0 and "bench_report.py throughput" in r.stderr,
          f"no arguments: exit {r.returncode}, '{r.stderr.strip()[:80]}'")

script_checks.finish("test_bench_report")
