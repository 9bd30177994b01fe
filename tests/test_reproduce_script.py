#!/usr/bin/env python3
"""scripts/reproduce run as a user runs it, on two sections of its report (--only):
- Saha (1999) §6.1: the holding torques it reports for the planar arm at t = 0 are the closed
  form of three uniform rods stretched along x under gravity (robots/planar3.yaml);
- Mata et al. (2002) §5.1, Table 5: the errors it reports are the ones denoc_reproduce computes
  (run here on its own), the paper's columns are the paper's, the ordering the text states
  holds for the numbers in the table, and docs/papers.md quotes the same table;
- the report holds the chosen sections only; bad usage and a missing build are exit 2;
- the operation counts (--only counts): every route exactly on its fitted polynomial, the
  papers' formulas beside them; the Puma's counts docs/papers.md quotes are the report's and
  what the command it shows prints now (counts are exact), and they bear out the page's reading;
- docs/papers.md's measured regions are the ones scripts/reproduce --docs writes (DOCS_BLOCKS),
  each once, closed and stamped with a commit and a machine; its figures from docs/reproduce/
  are the ones --docs copies (DOCS_FIGURES).
Exit 77 (skipped by CTest) after the counts when matplotlib is missing (scripts/plot draws the
figures).

  test_reproduce_script.py REPRODUCE BUILD_DIR
"""
import csv
import importlib.util
import os
import re
import shlex
import sys
import tempfile
from importlib.machinery import SourceFileLoader

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
import script_checks  # noqa: E402
from script_checks import check, run  # noqa: E402

try:
    import matplotlib  # noqa: F401
    HAVE_PLOTS = True
except ImportError:
    HAVE_PLOTS = False

reproduce, build = sys.argv[1:3]
source = os.path.dirname(os.path.dirname(os.path.abspath(reproduce)))
page = open(os.path.join(source, "docs", "papers.md"), encoding="utf-8").read()
BEGIN = re.compile(r"^<!-- measured by scripts/reproduce --docs: (\S+) -->$")
END = "<!-- end of measured -->"
STAMP = re.compile(r"^\(`scripts/reproduce --docs( --quick)?`, commit [0-9a-f]{7,}[^,]*, .+, "
                   r"\d+ CPUs, .+\)$")


def planar3_holding_torques(g=9.81, lengths=(0.4, 0.3, 0.2), masses=(4, 3, 2)):
    """Joint i carries the weight of every rod beyond it, each at its centre: tau_i = g sum_k>=i
    m_k (x_k - x_i), x the distance along the stretched arm from the base."""
    starts = [sum(lengths[:i]) for i in range(3)]
    centres = [starts[i] + lengths[i] / 2 for i in range(3)]
    return [g * sum(masses[k] * (centres[k] - starts[i]) for k in range(i, 3)) for i in range(3)]


def table_rows(report, heading):
    """The rows of the first table after the heading: {first cell: [other cells]}."""
    section = report.split(heading, 1)[1]
    rows = {}
    for line in section.splitlines():
        if line.startswith("| ") and not line.startswith("| route") and "---" not in line:
            cells = [c.strip() for c in line.strip("|").split("|")]
            rows[cells[0]] = cells[1:]
        elif rows and not line.startswith("|"):
            break
    return rows


def check_saha_planar3(report):
    m = re.search(r"tau\(0\) = holding torques \(([-\d.]+), ([-\d.]+), ([-\d.]+)\) N m", report)
    if not check(m is not None, "report: no holding torques in the Saha section"):
        return
    expected = planar3_holding_torques()
    for j, (got, want) in enumerate(zip(map(float, m.groups()), expected), start=1):
        check(abs(got - want) <= 6e-4, f"tau{j}(0) = {got}, closed form {want:.4f}")


def check_mata_table5(report, tmp):
    steps, summary = os.path.join(tmp, "steps.csv"), os.path.join(tmp, "summary.csv")
    r = run([os.path.join(build, "tests", "denoc_reproduce"), "table5", steps, summary])
    check(r.returncode == 0, f"denoc_reproduce table5: {r.stderr}")
    library = {row["route"]: [float(row[k]) for k in ("max1", "mean1", "max2", "mean2")]
               for row in csv.DictReader(open(summary))}
    rows = table_rows(report, "## Mata et al. (2002) §5.1: Table 5 and Fig. 2")
    paper = {"udu (ABA)": ("0.4976", "0.01324"), "cholesky (CRBA)": ("1.2922", "0.2751"),
             "gibbs_appell (GA)": ("0.534", "0.008761"), "fixman (-)": ("-", "-"),
             "cholesky_gauss_jordan (CRBA, the paper's Gauss-Jordan)": ("1.2922", "0.2751"),
             "gibbs_appell_gauss_jordan (GA, the paper's Gauss-Jordan)": ("0.534", "0.008761"),
             "float_data (the data in float, computed in double)": ("-", "-")}
    check(set(rows) == set(paper), f"Table 5 routes {sorted(rows)}")
    for name, cells in rows.items():
        route = name.split(" ")[0]
        check(tuple(cells[:2]) == paper.get(name), f"{name}: paper's columns {cells[:2]}")
        s = library[route]
        want = [f"{x:.4f}" if x >= 1e-4 else f"{x:.1e}" for x in (s[2], s[3], s[0], s[1])]
        check(cells[2:] == want, f"{name}: report {cells[2:]}, denoc_reproduce {want}")
    # docs/papers.md quotes this table as scripts/reproduce --docs last wrote it: the same rows,
    # or the page is stale (run scripts/reproduce OUT --only mata-table5 --docs).
    quoted = table_rows(page, "<!-- measured by scripts/reproduce --docs: mata-table5 -->")
    check(quoted == rows, f"docs/papers.md's Table 5 {quoted} is not what scripts/reproduce "
                          f"reports {rows}: run scripts/reproduce OUT --only mata-table5 --docs")
    # The text's claim: U D U^T < Gibbs-Appell < Cholesky in the largest and the mean error.
    for k, what in ((2, "largest"), (3, "mean")):
        udu, ga, chol = (library[r][k] for r in ("udu", "gibbs_appell", "cholesky"))
        check(udu < ga < chol, f"{what} error: udu {udu}, gibbs-appell {ga}, cholesky {chol}")


def check_counts(tmp):
    """The counts table: every route's counts exactly on its fitted polynomial, the papers'
    formulas beside them as the papers print them."""
    out = os.path.join(tmp, "counts")
    r = run([reproduce, out, "--build", build, "--only", "counts"])
    check(r.returncode == 0, f"reproduce --only counts: exit {r.returncode}: {r.stderr}")
    if r.returncode != 0:
        return
    rows = table_rows(open(os.path.join(out, "report.md")).read(),
                      "## Operation counts beside the papers' tables")
    check(len(rows) == 12, f"counts table: {len(rows)} routes, expected 12")
    for name, cells in rows.items():
        check(cells[0].endswith("(exact)"), f"{name}: counts not on the fitted polynomial: {cells[0]}")
    paper = {"inverse dynamics (DeNOC)": ("120n - 44", "97n - 55"),
             "forward dynamics (U D U^T, O(n))": ("201n - 335", "193n - 361"),
             "inverse dynamics (Gibbs-Appell)": ("96n - 101", "84n - 100"),
             "inertia matrix (Gibbs-Appell Hessian)": ("11.5n^2 + 19.5n - 49", "8.5n^2 + 31.5n - 69")}
    for name, (m, a) in paper.items():
        check(tuple(rows.get(name, [""] * 7)[5:7]) == (m, a), f"{name}: paper's columns")
    check_puma_counts(open(os.path.join(out, "report.md")).read())


def measured_regions():
    """docs/papers.md's measured regions in the page's order: [(name, lines)], and what is
    wrong with their markers."""
    regions, problems, name = [], [], None
    for number, line in enumerate(page.splitlines(), start=1):
        begin = BEGIN.match(line)
        if begin:
            if name is not None:
                problems.append(f"line {number}: region {begin.group(1)} opens inside {name}")
            name = begin.group(1)
            regions.append((name, []))
        elif line == END:
            if name is None:
                problems.append(f"line {number}: '{END}' closes no region")
            name = None
        elif name is not None:
            regions[-1][1].append(line)
    if name is not None:
        problems.append(f"region {name} is not closed by '{END}'")
    return regions, problems


def region_body(name):
    """A region's lines without the stamp --docs puts under them (and the blank line before)."""
    lines = dict(measured_regions()[0]).get(name, [])
    return lines[:-2] if len(lines) >= 2 and STAMP.match(lines[-1]) else lines


def check_puma_counts(report):
    """The Puma's counts on the page: what the report (this build) gives, what the command the
    page shows prints, and the ordering the page reads from them."""
    body = region_body("mata-table7-counts")
    check(body and "\n".join(body) in report,
          "docs/papers.md's Puma counts (mata-table7-counts) are not what scripts/reproduce "
          "reports: run scripts/reproduce OUT --only counts --docs")
    command = re.search(r"`(rfdsim robots/puma560_akb\.yaml [^`]*--algorithm NAME)`",
                        "\n".join(body))
    if not check(command is not None, "mata-table7-counts: no rfdsim command"):
        return
    total = {}
    for line in body:
        route = re.match(r"^\| `([a-z-]+)`[^|]*\|(.*)\|$", line)
        if not route:
            continue
        alg = route.group(1)
        quoted = [int(cell.strip().replace(",", "")) for cell in route.group(2).split("|")]
        argv = shlex.split(command.group(1).replace("NAME", alg))
        argv[0] = os.path.join(build, "apps", "rfdsim", "rfdsim")
        r = run(argv, cwd=source)
        if not check(r.returncode == 0, f"{command.group(1)} ({alg}): {r.stderr.strip()}"):
            continue
        header, row = r.stdout.strip().splitlines()
        k = dict(zip(header.split(","), row.split(",")))
        m = int(k["multiplications"]) + int(k["divisions"])
        printed = [m, int(k["additions"]), int(k["square_roots"]), int(k["sines_cosines"]),
                   m + int(k["additions"])]
        check(quoted == printed, f"docs/papers.md's counts of {alg} {quoted}, rfdsim "
                                 f"--count-operations prints {printed}")
        total[alg] = printed[4]
    check(set(total) == {"gibbs-appell", "cholesky", "udu", "fixman"},
          f"mata-table7-counts: routes {sorted(total)}")
    if len(total) == 4:
        # The page's reading: Gibbs-Appell takes fewer operations than the composite bodies,
        # U D U^T more than either.
        check(total["gibbs-appell"] < total["cholesky"],
              f"gibbs-appell {total['gibbs-appell']} >= cholesky {total['cholesky']} (M + A)")
        check(total["udu"] > max(total["gibbs-appell"], total["cholesky"]),
              f"udu {total['udu']} not above gibbs-appell and cholesky (M + A)")


def check_docs_regions():
    """The page's measured regions and figures against what scripts/reproduce --docs writes."""
    loader = SourceFileLoader("reproduce_script", reproduce)
    script = importlib.util.module_from_spec(importlib.util.spec_from_loader(loader.name, loader))
    loader.exec_module(script)  # its definitions only: main() runs under __main__
    regions, problems = measured_regions()
    for problem in problems:
        check(False, f"docs/papers.md: {problem}")
    names = [name for name, _ in regions]
    check(len(names) == len(set(names)), f"docs/papers.md: a measured region twice: {names}")
    check(set(names) == set(script.DOCS_BLOCKS),
          f"docs/papers.md's measured regions {sorted(set(names))}, scripts/reproduce --docs "
          f"writes {sorted(script.DOCS_BLOCKS)}")
    sections = [name for name, _ in script.SECTIONS]
    for name, owner in script.DOCS_BLOCKS.items():
        check(owner in sections, f"DOCS_BLOCKS: {name} by the section {owner}, not in SECTIONS")
    for name, lines in regions:
        check(bool(lines) and STAMP.match(lines[-1]) is not None,
              f"docs/papers.md: region {name} has no commit and machine under it "
              f"(run scripts/reproduce OUT --only {script.DOCS_BLOCKS.get(name, '?')} --docs)")
    shown = re.findall(r"!\[[^\]]*\]\(reproduce/([^)]+)\)", page)
    check(sorted(shown) == sorted(script.DOCS_FIGURES),
          f"docs/papers.md shows {sorted(shown)} from docs/reproduce/, --docs copies "
          f"{sorted(script.DOCS_FIGURES)}")
    for name in shown:
        check(os.path.exists(os.path.join(source, "docs", "reproduce", name)),
              f"docs/reproduce/{name} missing")


check_docs_regions()
with tempfile.TemporaryDirectory() as tmp:
    check_counts(tmp)  # no figures: runs without matplotlib
if not HAVE_PLOTS:
    if script_checks.failures:
        script_checks.finish("test_reproduce_script")
    print("test_reproduce_script: counts checked; the rest skipped: python3-matplotlib is missing")
    sys.exit(77)

with tempfile.TemporaryDirectory() as tmp:
    out = os.path.join(tmp, "out")
    r = run([reproduce, out, "--build", build, "--only", "saha-planar3", "--only", "mata-table5"])
    check(r.returncode == 0, f"reproduce: exit {r.returncode}: {r.stderr}")
    report = open(os.path.join(out, "report.md")).read() if r.returncode == 0 else ""
    check_saha_planar3(report)
    check_mata_table5(report, tmp)
    headings = [line for line in report.splitlines() if line.startswith("## ")]
    check(headings == ["## Saha (1999) §6.1: the planar three-link arm",
                       "## Mata et al. (2002) §5.1: Table 5 and Fig. 2"],
          f"report: sections {headings}, asked for two")
    for name in ("saha_fig5_planar3_torques.png", "mata_fig2_errors.png"):
        check(os.path.getsize(os.path.join(out, name)) > 0 if os.path.exists(
            os.path.join(out, name)) else False, f"{name} not written")
    for args, needle in (([out, "--build", build, "--only", "nosuch"], "invalid choice"),
                         ([out, "--build", os.path.join(tmp, "nobuild")], "not built")):
        r = run([reproduce, *args])
        check(r.returncode == 2 and needle in r.stderr,
              f"reproduce {args[1:]}: exit {r.returncode}, '{r.stderr.strip()}'")

script_checks.finish("test_reproduce_script")
