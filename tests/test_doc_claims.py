#!/usr/bin/env python3
"""What the documentation (README.md and docs/*.md, read as one text: "the docs" below) and the
example robot file say, checked against what the apps do, so that a claim cannot drift from the
code unnoticed:
- robots/stanford.yaml shows every key the loader accepts in every map (asked of ridim itself,
  through the "unknown key (expected one of ...)" message); the keys that would change the
  paper's arm are commented out, and with the `#` removed the file loads and gives other torques;
- the Puma 560 warning lines the docs quote are the lines ridim prints;
- rfdsim's output columns as the docs list them are rfdsim's header;
- the stick-slip example's energy bound stated in the docs holds for their command.

  test_doc_claims.py RIDIM RFDSIM SOURCE_DIR
"""
import csv
import os
import re
import shlex
import sys
import tempfile

ridim, rfdsim, source = sys.argv[1:4]
ridim, rfdsim = os.path.abspath(ridim), os.path.abspath(rfdsim)
os.chdir(source)  # the docs' commands name files relative to the checkout
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
import script_checks  # noqa: E402
from script_checks import check, run  # noqa: E402


readme = ""  # the docs: README.md, then docs/*.md
for name in ["README.md"] + sorted(os.path.join("docs", n) for n in os.listdir("docs")
                                   if n.endswith(".md")):
    with open(name, encoding="utf-8") as f:
        readme += f.read() + "\n"


def uncomment(text):
    """The example keys made live: lines `# key: ...` (`#   key:` inside a block) with the `#`
    at the start of the line or at a link's indentation; the explanations beside the keys
    (further right) stay comments."""
    return re.sub(r"^((?:    )?)# ( *[A-Za-z_]+:(?: .*)?)$", r"\1\2", text, flags=re.M)


def accepted_keys(robot, path):
    """The keys ridim accepts in the map at PATH (`links[0].drive`; "" for the top level)."""
    key = f"{path}.zz_not_a_key" if path else "zz_not_a_key"
    r = run([ridim, robot, "--describe", "--set", f"{key}=1"])
    m = re.search(r"unknown key \(expected one of ([^)]*)\)", r.stderr)
    check(m is not None, f"--set {key}: no list of the keys: {r.stderr.strip()}")
    return m.group(1).split(", ") if m else []


with tempfile.TemporaryDirectory() as tmp:
    # robots/stanford.yaml: every key shown, live or commented out.
    with open("robots/stanford.yaml", encoding="utf-8") as f:
        stanford = f.read()
    live = os.path.join(tmp, "stanford_all_keys.yaml")
    with open(live, "w", encoding="utf-8") as f:
        f.write(uncomment(stanford))
    r = run([ridim, live, "--describe"])
    check(r.returncode == 0, f"stanford.yaml with its examples uncommented: {r.stderr.strip()}")
    maps = ["", "links[0]", "links[0].inertia", "links[0].drive", "initial", "trajectory", "tool",
            "payload", "payload.inertia", "base"]
    for path in maps:
        for key in accepted_keys(live, path):
            if path == "links[0]" and key == "d":  # the alias of b, named in b's comment
                check("`d` is accepted as an alias" in stanford, "stanford.yaml: the alias d")
                continue
            check(re.search(rf"^\s*(- )?{re.escape(key)}:|[{{,] ?{re.escape(key)}:", uncomment(stanford),
                            re.M) is not None, f"stanford.yaml does not show the key {path or '(top)'}.{key}")
    # Commented out so that the paper's numbers stay, and real: they change the torques.
    r_file, r_live = (run([ridim, p, "-o", os.path.join(tmp, n)])
                      for p, n in (("robots/stanford.yaml", "a.csv"), (live, "b.csv")))
    check(r_file.returncode == 0 and r_live.returncode == 0, "ridim on stanford.yaml")
    with open(os.path.join(tmp, "a.csv")) as a, open(os.path.join(tmp, "b.csv")) as b:
        check(a.read() != b.read(), "stanford.yaml's commented-out examples change nothing")

    # The Puma 560's warning lines, as quoted.
    quoted = re.findall(r"^ridim: warning: robots/puma560\.yaml: .*$", readme, re.M)
    check(len(quoted) > 0, "the docs quote no warning of robots/puma560.yaml")
    r = run([ridim, "robots/puma560.yaml", "-o", os.path.join(tmp, "puma.csv")])
    printed = r.stderr.splitlines()
    for line in quoted:
        check(line in printed, f"the docs' warning line is not what ridim prints:\n  {line}\n"
                               f"ridim printed:\n  " + "\n  ".join(printed))

    # rfdsim's columns: the docs' list, expanded for n = 3, is the header.
    m = re.search(r"^Output: `(t,q1\.\.qn,[^`]*)`", readme, re.M)
    check(m is not None, "the docs: no 'Output: `t,q1..qn,...`' line for rfdsim")
    if m:
        listed = []
        for item in m.group(1).split(","):
            k = re.fullmatch(r"([a-z]+)1\.\.\1n", item)
            listed += [f"{k.group(1)}{i}" for i in (1, 2, 3)] if k else [item]
        r = run([rfdsim, "robots/planar3.yaml", "--free-fall", "--t-end", "0.01"])
        header = r.stdout.splitlines()[0] if r.stdout else ""
        check(header == ",".join(listed), f"rfdsim's header '{header}', the docs list '{','.join(listed)}'")

    # --count-operations: the row the docs show is the one ridim prints.
    shown = re.search(r"^\$ ridim robots/stanford\.yaml --count-operations\n(quantity,[^\n]*)\n([^\n]*)$",
                      readme, re.M)
    check(shown is not None, "the docs: no example of ridim --count-operations")
    if shown:
        r = run([ridim, "robots/stanford.yaml", "--count-operations"])
        check(r.stdout == shown.group(1) + "\n" + shown.group(2) + "\n",
              f"the docs' --count-operations example is not what ridim prints:\n{r.stdout}")

    # The stick-slip example: the docs' command, and the bound it states.
    command = re.search(r"^build/apps/rfdsim/rfdsim robots/planar3_drives\.yaml .*--coulomb stick-slip.*$",
                        readme, re.M)
    bound = re.search(r"kinetic \+ potential - work \+ dissipated stays within ([0-9.e+-]+) J of 0",
                      readme)
    check(command is not None and bound is not None, "the docs: the stick-slip example or its bound")
    if command and bound:
        argv = shlex.split(command.group(0))
        argv[0] = rfdsim
        argv[argv.index("-o") + 1] = os.path.join(tmp, "fall.csv")
        r = run(argv)
        check(r.returncode == 0, f"{command.group(0)}: {r.stderr.strip()}")
        with open(os.path.join(tmp, "fall.csv"), newline="") as f:
            energy = [float(row["kinetic"]) + float(row["potential"]) - float(row["work"]) +
                      float(row["dissipated"]) for row in csv.DictReader(f)]
        drift = max(abs(e - energy[0]) for e in energy)
        print(f"stick-slip example: drift {drift:.3g} J, the docs' bound {bound.group(1)} J")
        check(drift <= float(bound.group(1)), f"stick-slip example: drift {drift:.3g} J is beyond "
                                              f"the docs' {bound.group(1)} J")

script_checks.finish("test_doc_claims")
