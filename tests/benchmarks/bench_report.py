#!/usr/bin/env python3
"""The measuring and reporting half of scripts/bench (python3, standard library only).

  bench_report.py throughput BUILD_DIR ROBOT.yaml OUT.json
      ridim on a 1,000,000-row trajectory (wall time, max RSS; and 100,000 rows for the RSS
      comparison), rfdsim's 10 s free fall at rtol 1e-10 (wall time, right-hand-side evaluations,
      the cost of writing its rows and of starting the process); results as JSON.
  bench_report.py table MAIN.json PAIRS.json CROSSOVER.json THROUGHPUT.json
      the markdown table of the suite against KDL from Google Benchmark's JSON (the paired suite/KDL timings
      for the targets, medians of the repetitions elsewhere) and the throughput JSON, then the
      crossover study.
  bench_report.py race RACE.json
      the suite against RBDL and Pinocchio (race/ benchmarks, timed in turns), ns per call
      and the ratio fastest peer / suite (above 1: the suite is faster), with the targets.
  bench_report.py crossover CROSSOVER.json
      the crossover study alone: U D U^T against GIM + Cholesky per n (scripts/bench
      --crossover-docs writes it into docs/performance.md).
  bench_report.py variants NAME=RACE.json ...
      the ratio fastest peer / suite per quantity and model, one column per build
      variant (compiler and -march), with the targets.
"""

import json
import os
import re
import statistics
import subprocess
import sys
import time

CHAINS = [6, 12, 24, 48, 96, 192, 384, 1000]
MODELS = ["stanford"] + ["n:%d" % n for n in CHAINS]
# The trees (robots/*.urdf, fixed base), raced against Pinocchio reading the same URDF.
TREES = {"solo12": "Solo 12 quadruped (tree, 12 joints)",
         "simple_humanoid": "simple humanoid (tree, 29 joints)"}
# The same trees on a floating base (the suite's functions, the base at the root), raced
# against Pinocchio's free-flyer root joint (6 + n rates).
FLOATING = {"solo12_floating": "Solo 12 quadruped, floating base (6 + 12 rates)",
            "simple_humanoid_floating": "simple humanoid, floating base (6 + 29 rates)"}
FLAT_NS = [24, 48, 96, 192, 384, 1000]

# suite quantity -> (label, KDL benchmark, KDL label, target ratio or None)
QUANTITIES = [
    ("id", "inverse dynamics", "id", "ChainIdSolver_RNE::CartToJnt", 0.32),
    ("gim", "GIM", "gim", "ChainDynParam::JntToMass", 0.27),
    ("fd_udu", "forward dynamics O(n), UDU^T", "fd", "ChainHdSolver_Vereshchagin, 0 constraints", 0.35),
    ("bias", "bias h(q, qd)", "bias", "ChainIdSolver_RNE, qdd = 0", None),
    ("gravity", "gravity g(q)", "gravity", "ChainDynParam::JntToGravity", None),
    ("gim_inv", "inverse GIM", "gim_inv", "JntToMass + Eigen LLT, solve I", None),
    ("fd_chol", "forward dynamics, GIM + Cholesky", "fd_chol", "ChainFdSolver_RNE (GIM + LDL)", None),
    ("ga_id", "inverse dynamics, Gibbs-Appell", "id", "ChainIdSolver_RNE::CartToJnt", None),
    ("ga_gim", "GIM, Gibbs-Appell", "gim", "ChainDynParam::JntToMass", None),
    ("ga_fd", "forward dynamics, Gibbs-Appell + Cholesky", "fd_chol", "ChainFdSolver_RNE (GIM + LDL)", None),
]

# The O(n^2) inverse GIM (U D U^T, inverse_inertia_udu) against the O(n^3) one (GIM + Cholesky):
# target ratios from Pinocchio's computeMinverse, which takes 0.90, 0.40 and 0.061 times the
# suite's O(n^3) inverse at n = 24, 96 and 1000 (g++ 12 -O3, generic x86-64): 1.2x faster than
# it. Other lengths are reported. Per-entry cost (time / n^2) at n = 1000 within 1.3x of n = 24.
INVERSE_TARGETS = {"n:24": 0.90 / 1.2, "n:96": 0.40 / 1.2, "n:1000": 0.061 / 1.2}
INVERSE_PER_ENTRY = (24, 1000, 1.3)

ROWS_BIG = 1_000_000
ROWS_SMALL = 100_000
RFDSIM_ROUNDS = 31


# ---------------------------------------------------------------------------------------------
# Throughput runs


TIME = "/usr/bin/time"  # GNU time (Debian package `time`)


def run(cmd, rss=False):
    """Runs cmd; returns (wall seconds, max RSS in KiB or None, stderr text); exits on failure.

    The peak RSS comes from GNU time (-f %M): the rusage python gets from wait4 for its own child
    also counts the forked copy of the python interpreter before exec (Linux keeps the high-water
    mark across exec), 10+ MB that have nothing to do with the program measured.
    """
    timed = rss and os.access(TIME, os.X_OK)
    full = [TIME, "-f", "DENOC_MAXRSS_KIB=%M"] + cmd if timed else cmd
    start = time.perf_counter()
    p = subprocess.run(full, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - start
    text, peak = p.stderr, None
    if timed:
        m = re.search(r"^DENOC_MAXRSS_KIB=(\d+)\s*$", text, re.M)
        peak = int(m.group(1)) if m else None
        text = re.sub(r"^DENOC_MAXRSS_KIB=.*\n?", "", text, flags=re.M)
    if p.returncode != 0:
        sys.exit("bench: %s failed (exit %d): %s" % (" ".join(cmd), p.returncode, text))
    return wall, peak, text


def ridim_throughput(work, gen, ridim, robot, rows):
    """ridim on a generated trajectory of `rows` rows, CSV in and out to a real file: wall times
    (three runs on the big file), peak memory."""
    traj = os.path.join(work, "traj_%d.csv" % rows)
    gen_wall, _, _ = run([gen, robot, str(rows), traj])
    out = os.path.join(work, "torques_%d.csv" % rows)
    walls, rss = [], []
    for _ in range(3 if rows == ROWS_BIG else 1):
        w, r, _ = run([ridim, robot, traj, "-o", out], rss=True)
        walls.append(w)
        rss.append(r)
    with open(out, "rb") as f:
        lines = sum(1 for _ in f)
    if lines != rows + 1:
        sys.exit("bench: ridim wrote %d lines for %d rows" % (lines, rows))
    result = {
        "rows": rows,
        "wall_s": statistics.median(walls),
        "walls_s": walls,
        "max_rss_kib": max(rss) if None not in rss else None,
        "input_bytes": os.path.getsize(traj),
        "generate_s": gen_wall,
    }
    os.unlink(traj)
    os.unlink(out)
    return result


def rfdsim_costs(rfdsim, robot):
    """rfdsim: the 10 s free fall; the same with two output rows (dopri5's steps do not depend on
    the output times, so the difference is the cost of the 1001 rows); and a 1 ms run for the
    cost of starting the process and reading the robot file."""
    base = [rfdsim, robot, "--free-fall", "--rtol", "1e-10", "--atol", "1e-10", "--stats", "-o", "/dev/null"]
    variants = {
        "full": ["--t-end", "10"],
        "two_rows": ["--t-end", "10", "--dt", "10"],
        "startup": ["--t-end", "0.001", "--dt", "0.001"],
    }
    # The runs take milliseconds: the three variants take turns, RFDSIM_ROUNDS times, so that a
    # change in the machine's load affects them alike; medians.
    walls = {name: [] for name in variants}
    rf = {}
    for _ in range(RFDSIM_ROUNDS):
        for name, extra in variants.items():
            w, _, text = run(base + extra)
            walls[name].append(w)
            m = re.search(r"right-hand-side evaluations (\d+)", text)
            if not m:
                sys.exit("bench: rfdsim --stats printed no evaluation count: %r" % text)
            rf[name] = {"evaluations": int(m.group(1)), "stats": text.strip()}
    for name in variants:
        rf[name]["wall_s"] = statistics.median(walls[name])
        rf[name]["walls_s"] = walls[name]
    return rf


def throughput(build, robot, out_path):
    work = os.path.join(build, "throughput")
    os.makedirs(work, exist_ok=True)
    gen = os.path.join(build, "tests", "benchmarks", "denoc_bench_trajectory")
    ridim = os.path.join(build, "apps", "ridim", "ridim")
    result = {"ridim_%d" % rows: ridim_throughput(work, gen, ridim, robot, rows)
              for rows in (ROWS_SMALL, ROWS_BIG)}
    result["rfdsim"] = rfdsim_costs(os.path.join(build, "apps", "rfdsim", "rfdsim"), robot)
    with open(out_path, "w") as f:
        json.dump(result, f, indent=1)


# ---------------------------------------------------------------------------------------------
# Table


def load_medians(path):
    """{benchmark name: median cpu_time in ns} from Google Benchmark JSON."""
    with open(path) as f:
        data = json.load(f)
    scale = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}
    medians, plain = {}, {}
    for b in data["benchmarks"]:
        t = b["cpu_time"] * scale[b.get("time_unit", "ns")]
        if b.get("run_type") == "aggregate":
            if b.get("aggregate_name") == "median":
                medians[b["run_name"]] = t
            elif b.get("aggregate_name") == "cv":
                NOISY[b["run_name"]] = b["cpu_time"] > 0.10  # cv is reported as a fraction
        else:
            plain.setdefault(b.get("run_name", b["name"]), []).append(t)
    for name, ts in plain.items():  # no aggregates (one repetition): the median of the runs
        medians.setdefault(name, statistics.median(ts))
    return medians, data.get("context", {})


NOISY = {}  # benchmark name -> coefficient of variation over the repetitions above 10%


def load_family(path, family):
    """{'<quantity>/<model>': counters} from the `family`/ benchmarks (pair/, race/; see
    denoc_bench.cpp)."""
    with open(path) as f:
        data = json.load(f)
    found = {}
    prefix = family + "/"
    for b in data["benchmarks"]:
        name = b.get("run_name", b["name"])
        if name.startswith(prefix) and b.get("run_type", "iteration") == "iteration":
            found[name[len(prefix):].split("/manual_time")[0]] = b
    return found


def load_pairs(path):
    return load_family(path, "pair")


def fmt_ns(t, name=None):
    if t is None:
        return "—"
    mark = "*" if name and NOISY.get(name) else ""
    if t < 100:
        return "%.1f%s" % (t, mark)
    return "{:,.0f}{}".format(t, mark)


def fmt_ratio(r):
    return "—" if r is None else "%.3f" % r


def model_label(m):
    if m in TREES:
        return TREES[m]
    if m in FLOATING:
        return FLOATING[m]
    return "Stanford arm" if m == "stanford" else "chain n = %s" % m[2:]


def crossover_n(cross, udu="fd_udu", chol="fd_chol"):
    """Smallest measured n from which UDU^T is faster than GIM + Cholesky at every larger n."""
    ns = sorted({int(k.split(":")[1]) for k in cross if k.startswith("crossover/%s/" % udu)})
    faster = {n: cross["crossover/%s/n:%d" % (udu, n)] < cross["crossover/%s/n:%d" % (chol, n)] for n in ns}
    answer = None
    for n in reversed(ns):
        if not faster[n]:
            break
        answer = n
    first = next((n for n in ns if faster[n]), None)
    return answer, first, ns, faster


class TargetTable:
    """The main table's rows, and how many of the rows with a target met it."""

    def __init__(self):
        self.lines = [
            "| quantity | model | suite ns (double) | KDL ns | ratio suite/KDL | target | met? "
            "| suite ns (float) | ratio float/KDL |",
            "|---|---|---:|---:|---:|---|---|---:|---:|"]
        self.met = self.total = 0

    def row(self, *cells):
        self.lines.append("| " + " | ".join(cells) + " |")

    def verdict(self, ok):
        """Counts a target and says whether it was met."""
        self.met += ok
        self.total += 1
        return "yes" if ok else "**no**"


def quantity_rows(tt, t, pairs):
    """Suite against KDL per quantity and model: medians, or the paired timings (the targets)."""
    for q, label, kq, klabel, target in QUANTITIES:
        for m in MODELS:
            sd = t.get("suite/%s/double/%s" % (q, m))
            sf = t.get("suite/%s/float/%s" % (q, m))
            k = t.get("kdl/%s/%s" % (kq, m))
            ratio = sd / k if sd and k else None
            ratio_f = sf / k if sf and k else None
            pair = pairs.get("%s/%s" % (q, m))
            if pair:  # the targets: timed in turns with KDL
                sd, k, ratio = pair["suite_ns"], pair["kdl_ns"], pair["ratio"]
            if target is not None and ratio is not None:
                met, tgt = tt.verdict(ratio <= target), "≤ %.2f" % target
            else:
                met, tgt = "—", "— (reference)"
            tt.row("%s (KDL: %s)" % (label, klabel) if m == "stanford" else label,
                   model_label(m),
                   fmt_ns(sd, None if pair else "suite/%s/double/%s" % (q, m)),
                   fmt_ns(k, None if pair else "kdl/%s/%s" % (kq, m)),
                   fmt_ratio(ratio), tgt, met,
                   fmt_ns(sf, "suite/%s/float/%s" % (q, m)), fmt_ratio(ratio_f))


def per_joint(t, pairs, fmt, counter=None):
    """(max/min, ns per joint) over FLAT_NS, or (None, None) when a length is missing; from the
    paired timing's fastest round (counter) when given: the least disturbed."""
    if counter:
        per = [pairs.get(fmt % n, {}).get(counter) for n in FLAT_NS]
    else:
        per = [t.get(fmt % n) for n in FLAT_NS]
    if any(p is None for p in per):
        return None, None
    per = [p / n for p, n in zip(per, FLAT_NS)]
    return max(per) / min(per), per


def describe_per_joint(r, per):
    if r is None:
        return "—"
    return "max/min %.3f (%s ns/joint)" % (r, ", ".join("%.1f" % p for p in per))


def per_joint_rows(tt, t, pairs):
    """Per-joint cost, n = 24..1000: flat within 1.2."""
    for q, label in (("id", "inverse dynamics"), ("fd_udu", "forward dynamics O(n)")):
        rd, per_d = per_joint(t, pairs, "%s/n:%%d" % q, "suite_min_ns")
        rf, per_f = per_joint(t, pairs, "suite/%s/float/n:%%d" % q)
        rk, per_k = per_joint(t, pairs, "%s/n:%%d" % q, "kdl_min_ns")
        tt.row("%s: ns per joint flat, n = %s" % (label, "..".join(map(str, (FLAT_NS[0], FLAT_NS[-1])))),
               "chains " + ", ".join(map(str, FLAT_NS)),
               describe_per_joint(rd, per_d), describe_per_joint(rk, per_k), "—",
               "max/min ≤ 1.20", tt.verdict(rd is not None and rd <= 1.2),
               describe_per_joint(rf, per_f), "—")


def inverse_rows(tt, t, pairs):
    """The O(n^2) inverse against the O(n^3) one, timed in turns (pair/inv/), and its cost per
    entry."""
    for m in MODELS:
        pair = pairs.get("inv/%s" % m)
        if not pair:
            continue
        target = INVERSE_TARGETS.get(m)
        if target is not None:
            met, tgt = tt.verdict(pair["ratio"] <= target), "≤ %.3f" % target
        else:
            met, tgt = "—", "report"
        tt.row("inverse GIM O(n^2) from U D U^T vs O(n^3) GIM + Cholesky" if m == "stanford"
               else "inverse GIM O(n^2)",
               model_label(m), fmt_ns(pair["udu_ns"]),
               "%s (O(n^3))" % fmt_ns(pair["cholesky_ns"]), fmt_ratio(pair["ratio"]), tgt, met,
               fmt_ns(t.get("suite/gim_inv_udu/float/%s" % m), "suite/gim_inv_udu/float/%s" % m),
               "—")
    lo, hi, limit = INVERSE_PER_ENTRY
    p_lo, p_hi = pairs.get("inv/n:%d" % lo), pairs.get("inv/n:%d" % hi)
    if p_lo and p_hi:
        per_lo, per_hi = p_lo["udu_min_ns"] / lo**2, p_hi["udu_min_ns"] / hi**2
        tt.row("inverse GIM O(n^2): ns per entry (time / n^2), fastest round",
               "chains %d, %d" % (lo, hi),
               "%.2f, %.2f (x%.2f)" % (per_lo, per_hi, per_hi / per_lo), "—", "—",
               "n = %d within x%.1f of n = %d" % (hi, limit, lo),
               tt.verdict(per_hi <= limit * per_lo), "—", "—")


def crossover_row(tt, cross):
    xn, first, ns, _ = crossover_n(cross)
    tt.row("crossover: UDU^T faster than GIM + Cholesky (double)",
           "chains n = %d..%d, %s" % (2, 100, ", ".join(str(n) for n in ns if n > 100)),
           ("from n = %d on (first faster at n = %s)" % (xn, first)) if xn
           else "never at every larger n",
           "—", "—", "report", "—", "—", "—")


def ridim_rows(tt, thr):
    """ridim's throughput on a million rows, and its peak memory against a tenth of them."""
    big, small = thr["ridim_%d" % ROWS_BIG], thr["ridim_%d" % ROWS_SMALL]
    rate = big["rows"] / big["wall_s"]
    tt.row("ridim throughput, Stanford arm, CSV in and out (%.0f MB in)" % (big["input_bytes"] / 1e6),
           "%s rows" % "{:,}".format(big["rows"]),
           "{:,.0f} rows/s (wall {:.3f} s, median of {})".format(rate, big["wall_s"],
                                                                 len(big["walls_s"])),
           "—", "—", "≥ 500,000 rows/s", tt.verdict(rate >= 500_000), "—", "—")
    if big["max_rss_kib"] and small["max_rss_kib"]:
        grow = big["max_rss_kib"] / small["max_rss_kib"]
        ok = grow <= 1.10
        rss_text = "{:,} KiB vs {:,} KiB (x{:.3f})".format(small["max_rss_kib"],
                                                          big["max_rss_kib"], grow)
    else:
        ok, rss_text = False, "not measured (needs GNU time: %s)" % TIME
    tt.row("ridim peak memory (max RSS)", "{:,} vs {:,} rows".format(small["rows"], big["rows"]),
           rss_text, "—", "—", "independent of rows (≤ x1.10)", tt.verdict(ok), "—", "—")


def rfdsim_row(tt, thr, t, pairs):
    """rfdsim's wall time against its evaluations times the forward dynamics' cost, plus the
    writing of its rows."""
    rf = thr["rfdsim"]
    fd_ns = (pairs["fd_udu/stanford"]["suite_ns"] if "fd_udu/stanford" in pairs
             else t.get("suite/fd_udu/double/stanford"))
    evals = rf["full"]["evaluations"]
    fd_s = evals * fd_ns * 1e-9
    writing = max(0.0, rf["full"]["wall_s"] - rf["two_rows"]["wall_s"])
    startup = rf["startup"]["wall_s"]
    wall = rf["full"]["wall_s"]
    model = fd_s + writing
    ratio = (wall - startup) / model
    tt.row("rfdsim wall time vs evaluations x FD cost + output writing",
           "Stanford arm, 10 s free fall, dopri5, rtol = atol = 1e-10, 1001 rows",
           "wall %.2f ms − start-up %.2f ms vs %d evaluations × %s ns = %.2f ms + writing %.2f ms"
           % (wall * 1e3, startup * 1e3, evals, fmt_ns(fd_ns), fd_s * 1e3, writing * 1e3),
           "—", "%.3f (with start-up: %.3f)" % (ratio, wall / model), "≤ 1.30",
           tt.verdict(ratio <= 1.3), "—", "—")


def print_table_notes(rfdsim_stats):
    print(
        "Targets (the rows with a target): the suite and KDL timed in turns, in batches of about "
        "4000 joint-calls with the order swapped every round; ns are the medians over the rounds "
        "and the ratio the median of the per-round ratios. Per joint: the fastest round of each "
        "length (the least disturbed). Other rows and the float columns: medians over the "
        "repetitions of Google Benchmark's CPU time per call (ns), timed separately. Each call "
        "takes the next state of a pre-generated random pool. KDL is Debian's binary build; "
        "the benchmark is compiled with generic x86-64 flags on both sides (no -march). "
        "rfdsim: medians of %d interleaved runs each; 'writing' = wall(1001 rows) - wall(2 rows, same "
        "steps); start-up = wall of a 1 ms run; the ratio is (wall - start-up) / (evaluations x "
        "FD + writing). rfdsim --stats: %s. A time marked * varied by more than 10%% (coefficient of "
        "variation) over its repetitions." % (RFDSIM_ROUNDS, rfdsim_stats)
    )


def print_crossover(cross):
    """The crossover study: U D U^T against GIM + Cholesky per n."""
    xn, first, ns, faster = crossover_n(cross)
    print("Crossover study: forward dynamics, ns per call (double), UDU^T (O(n)) vs GIM + Cholesky")
    print()
    print("| n | UDU^T ns | GIM + Cholesky ns | cholesky/udu | faster |")
    print("|---:|---:|---:|---:|---|")
    for n in ns:
        u = cross["crossover/fd_udu/n:%d" % n]
        c = cross["crossover/fd_chol/n:%d" % n]
        print("| %d | %s | %s | %.3f | %s |" % (
            n, fmt_ns(u, "crossover/fd_udu/n:%d" % n), fmt_ns(c, "crossover/fd_chol/n:%d" % n),
            c / u, "udu" if faster[n] else "cholesky"))
    print()
    print("Crossover n: %s" % (
        ("%d (UDU^T is faster at every measured n >= %d; first faster at n = %s)" % (xn, xn, first))
        if xn else "none (GIM + Cholesky faster at the largest n)"))


def table(main_path, pairs_path, cross_path, thr_path):
    """The markdown table against KDL, its notes, then the crossover studies."""
    t, _ = load_medians(main_path)
    pairs = load_pairs(pairs_path)
    cross, _ = load_medians(cross_path)
    with open(thr_path) as f:
        thr = json.load(f)
    tt = TargetTable()
    quantity_rows(tt, t, pairs)
    per_joint_rows(tt, t, pairs)
    inverse_rows(tt, t, pairs)
    crossover_row(tt, cross)
    ridim_rows(tt, thr)
    rfdsim_row(tt, thr, t, pairs)
    print("\n".join(tt.lines))
    print()
    print("Targets met: %d of %d." % (tt.met, tt.total))
    print()
    print_table_notes(thr["rfdsim"]["full"]["stats"])
    print()
    print_crossover(cross)
    inverse_crossover(cross)


def inverse_crossover(cross):
    """The crossover study of the two inverse GIMs, if it was measured."""
    if not any(k.startswith("crossover/inv_udu/") for k in cross):
        return
    xn, first, ns, faster = crossover_n(cross, "inv_udu", "inv_chol")
    print()
    print("Crossover study: inverse GIM, ns per call (double), O(n^2) from U D U^T vs O(n^3) GIM + Cholesky")
    print()
    print("| n | U D U^T ns | GIM + Cholesky ns | cholesky/udu | faster |")
    print("|---:|---:|---:|---:|---|")
    for n in ns:
        u = cross["crossover/inv_udu/n:%d" % n]
        c = cross["crossover/inv_chol/n:%d" % n]
        print("| %d | %s | %s | %.3f | %s |" % (n, fmt_ns(u, "crossover/inv_udu/n:%d" % n),
                                             fmt_ns(c, "crossover/inv_chol/n:%d" % n), c / u,
                                             "udu" if faster[n] else "cholesky"))
    print()
    print("Inverse crossover n: %s" % (("%d (U D U^T faster at every measured n >= %d; first faster at n = %s)"
                                        % (xn, xn, first)) if xn else "none"))


# ---------------------------------------------------------------------------------------------
# The race against RBDL and Pinocchio

# race quantity -> (label, target ratio fastest peer / suite)
RACE = [
    ("id", "inverse dynamics", 1.3),
    ("fd", "forward dynamics O(n)", 1.3),
    ("gim", "inertia matrix", 1.1),
    ("fd_chol", "forward dynamics through Cholesky", 1.0),
    ("inv", "inverse inertia matrix", 1.2),
    ("coriolis", "Coriolis matrix C (Saha's; Pinocchio's is the Christoffel form)", None),
    ("chol", "sparse Cholesky of the inertia matrix (against cholesky::decompose)", None),
    ("com", "centre of mass (against centerOfMass)", None),
    ("com_jacobian", "centre-of-mass Jacobian (against jacobianCenterOfMass)", None),
    ("centroidal_matrix", "centroidal momentum matrix (against ccrba)", None),
    ("centroidal_momentum", "centroidal momentum (against computeCentroidalMomentum)", None),
    ("frame_velocity", "a foot's velocity (against getFrameVelocity)", None),
    ("frame_acceleration", "a foot's acceleration (against getFrameClassicalAcceleration)", None),
    ("id_derivatives", "derivatives of the inverse dynamics (against computeRNEADerivatives)",
     1.5),
    ("fd_derivatives", "derivatives of the forward dynamics (against computeABADerivatives)",
     1.5),
]
# On the trees, against Pinocchio: rnea, aba, crba and the sparse factorisation at 1.2x, the
# derivatives at 1.5x; the others timed for the record. On the floating-base trees, against its
# free-flyer: rnea, aba and crba at 1.2x, the derivatives at 1.5x; the others (the Cholesky
# route, the inverse, the factorisation) for the record.
TREE_TARGETS = {"id": 1.2, "fd": 1.2, "gim": 1.2, "chol": 1.2, "id_derivatives": 1.5,
                "fd_derivatives": 1.5}
FLOATING_TARGETS = {"id": 1.2, "fd": 1.2, "gim": 1.2, "id_derivatives": 1.5,
                    "fd_derivatives": 1.5}


def target_for(q, m, chain_target):
    if m in TREES:
        return TREE_TARGETS.get(q)
    if m in FLOATING:
        return FLOATING_TARGETS.get(q)
    return chain_target


def race_rows():
    """(quantity, label, model, target) in the order of the tables: the chains, the trees, then
    the floating-base trees."""
    for q, label, target in RACE:
        for m in MODELS + list(TREES) + list(FLOATING):
            yield q, label, m, target_for(q, m, target)
PEERS = [("rbdl", "RBDL"), ("pinocchio", "Pinocchio LOCAL"), ("pinocchio_world", "Pinocchio WORLD")]


def fmt_target(target):
    return "—" if target is None else "%.1f" % target


def met(r, target):
    """Whether the race's ratio meets its target; no target (a quantity timed for the record)."""
    if target is None:
        return "—"
    return "yes" if r >= target else "**no**"


def load_race(path):
    return load_family(path, "race")


def fastest_peer(b):
    best = min((b[p + "_ns"], label) for p, label in PEERS if p + "_ns" in b)
    return best[1]


def race_table(path):
    race = load_race(path)
    print("| quantity | model | suite ns | RBDL ns | Pinocchio LOCAL ns | Pinocchio WORLD ns "
          "| fastest peer | ratio fastest peer / suite | target | met? |")
    print("|---|---|---:|---:|---:|---:|---|---:|---:|---|")
    for q, label, m, target in race_rows():
        b = race.get("%s/%s" % (q, m))
        if b:
            r = b["best_ratio"]
            print("| %s | %s | %s | %s | %s | %s | %s | %.2f | %s | %s |" % (
                label, model_label(m), fmt_ns(b["suite_ns"]),
                *[fmt_ns(b.get(p + "_ns")) for p, _ in PEERS], fastest_peer(b), r,
                fmt_target(target), met(r, target)))
    print()
    print("Ratio: the median over the rounds of (fastest peer's time in the round) / (suite's "
          "time in the round); the columns of ns are medians over the rounds. Pinocchio only up "
          "to n = 400 (its Data allocates n^3 tensors); rnea has no convention (one column). "
          "Floating base: the suite's floating-base routes against Pinocchio's free-flyer root "
          "joint, the base's six rates first; aba given [0_6; joint torques].")


def variants_table(args):
    columns = []
    for a in args:
        name, path = a.split("=", 1)
        columns.append((name, load_race(path)))
    print("| quantity | model | " + " | ".join(n for n, _ in columns) + " | target |")
    print("|---|---|" + "---:|" * len(columns) + "---:|")
    missed = 0
    for q, label, m, target in race_rows():
        cells, any_cell = [], False
        for _, race in columns:
            b = race.get("%s/%s" % (q, m))
            if not b:
                cells.append("—")
                continue
            any_cell = True
            r = b["best_ratio"]
            missed += target is not None and r < target
            cells.append(("**%.3f**" if met(r, target) == "**no**" else "%.3f") % r + " (%s)" % {
                "RBDL": "R", "Pinocchio LOCAL": "P", "Pinocchio WORLD": "Pw"}[fastest_peer(b)])
        if any_cell:
            print("| %s | %s | %s | %s |" % (label, model_label(m), " | ".join(cells),
                                             fmt_target(target)))
    print()
    print("Each cell: the median over the rounds of (fastest peer's time) / (suite's time), "
          "peers and suite timed in turns in one binary; above 1 the suite is faster; bold: below "
          "the target. In brackets the fastest peer: R = RBDL, P = Pinocchio (LOCAL convention), "
          "Pw = Pinocchio (WORLD). Pinocchio only up to n = 400 (its Data allocates n^3 "
          "tensors). Targets missed: %d." % missed)


def main(argv):
    if len(argv) == 5 and argv[1] == "throughput":
        throughput(argv[2], argv[3], argv[4])
    elif len(argv) == 6 and argv[1] == "table":
        table(argv[2], argv[3], argv[4], argv[5])
    elif len(argv) == 3 and argv[1] == "crossover":
        print_crossover(load_medians(argv[2])[0])
    elif len(argv) == 3 and argv[1] == "race":
        race_table(argv[2])
    elif len(argv) >= 3 and argv[1] == "variants":
        variants_table(argv[2:])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
