#!/usr/bin/env python3
"""scripts/make-chain: the files it writes load in ridim and give the closed forms of the
links it promises. A one-link revolute rod (solid cylinder of radius r, length L, mass m)
about its end: M = m (L^2/3 + r^2/4), gravity torque m g L/2 cos q; a one-link prismatic
slider: M = m, force m g; a 400-link polypeptide chain loads and gives 400 torques; bad
input exits 2.

  test_make_chain.py MAKE_CHAIN RIDIM
"""
import math
import os
import sys
import tempfile

make_chain, ridim = sys.argv[1:3]
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
import script_checks  # noqa: E402
from script_checks import check, run  # noqa: E402


def ridim_rows(robot, traj, quantity):
    r = run([ridim, robot, traj, "--quantity", quantity])
    check(r.returncode == 0, f"ridim {robot} {quantity}: {r.stderr}")
    lines = r.stdout.strip().splitlines()
    return lines[0].split(","), [[float(v) for v in l.split(",")] for l in lines[1:]]


with tempfile.TemporaryDirectory() as tmp:
    rod, slider, poly = (os.path.join(tmp, f) for f in ("rod.yaml", "slider.yaml", "poly.yaml"))
    L, m, r = 0.7, 2.5, 0.03
    check(run([make_chain, "1", "--length", str(L), "--mass", str(m), "--radius", str(r),
               "--gravity", "0,-9.81,0", "-o", rod]).returncode == 0, "make-chain rod")
    traj = os.path.join(tmp, "traj.csv")
    q = 0.3
    with open(traj, "w") as f:
        f.write(f"t,q1,qd1,qdd1\n0,{q},0,0\n")
    _, rows = ridim_rows(rod, traj, "mass-matrix")
    check(math.isclose(rows[0][1], m * (L * L / 3 + r * r / 4), rel_tol=1e-12),
          f"rod: M = {rows[0][1]}, expected {m * (L * L / 3 + r * r / 4)}")
    _, rows = ridim_rows(rod, traj, "gravity")
    check(math.isclose(rows[0][1], m * 9.81 * L / 2 * math.cos(q), rel_tol=1e-12),
          f"rod: g = {rows[0][1]}, expected {m * 9.81 * L / 2 * math.cos(q)}")

    check(run([make_chain, "1", "--joints", "P", "--length", "0", "--mass", str(m),
               "-o", slider]).returncode == 0, "make-chain slider")
    _, rows = ridim_rows(slider, traj, "mass-matrix")
    check(math.isclose(rows[0][1], m, rel_tol=1e-12), f"slider: M = {rows[0][1]}, expected {m}")
    _, rows = ridim_rows(slider, traj, "gravity")
    check(math.isclose(rows[0][1], m * 9.81, rel_tol=1e-12),
          f"slider: g = {rows[0][1]}, expected {m * 9.81} (gravity along the joint's z)")

    check(run([make_chain, "400", "--polypeptide", "-o", poly]).returncode == 0, "polypeptide")
    n = 400
    with open(traj, "w") as f:
        f.write("t," + ",".join(f"q{i}" for i in range(1, n + 1)) + "," +
                ",".join(f"qd{i}" for i in range(1, n + 1)) + "," +
                ",".join(f"qdd{i}" for i in range(1, n + 1)) + "\n")
        f.write("0," + ",".join(["1.0471975511965976"] * n) + "," + ",".join(["0"] * n) + "," +
                ",".join(["1"] * n) + "\n")
    header, rows = ridim_rows(poly, traj, "torques")
    check(len(header) == n + 1 and len(rows) == 1, f"polypeptide: {len(header) - 1} torques")
    check(all(math.isfinite(v) for v in rows[0]), "polypeptide: finite torques")

    for args, needle in [(["0"], "N"), (["3", "--joints", "RX"], "--joints"),
                         (["3", "--mass", "1,-2"], "--mass"), (["two"], "two")]:
        res = run([make_chain, *args])
        check(res.returncode == 2 and needle in res.stderr,
              f"make-chain {args}: exit {res.returncode}, '{res.stderr.strip()}'")

script_checks.finish("test_make_chain")
