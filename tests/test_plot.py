#!/usr/bin/env python3
"""scripts/plot on every kind of output the apps write: the images must be valid PNG of the
requested size (read from the IHDR chunk) or SVG documents with the requested size; --robot
gives the joint types ridim reads from a YAML or a URDF; bad input must exit 2 with a message. Exit 77 (skipped by CTest) when matplotlib is missing.

  test_plot.py PLOT RIDIM RFDSIM ROBOTS_DIR
"""
import os
import struct
import sys
import tempfile
import xml.etree.ElementTree as ET

try:
    import matplotlib  # noqa: F401
except ImportError:
    print("test_plot: skipped: python3-matplotlib is missing (scripts/install-deps --plot)")
    sys.exit(77)

plot, ridim, rfdsim, robots = sys.argv[1:5]
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
import script_checks  # noqa: E402
from script_checks import check, run  # noqa: E402


def png_size(path):
    with open(path, "rb") as f:
        head = f.read(33)
    if head[:8] != b"\x89PNG\r\n\x1a\n" or head[12:16] != b"IHDR":
        return None
    return struct.unpack(">II", head[16:24])


def svg_size(path):
    root = ET.parse(path).getroot()
    if not root.tag.endswith("svg"):
        return None
    # matplotlib writes width="576pt" for 800 px at 100 dpi: 72 pt per inch
    w, h = (float(root.get(k).rstrip("pt")) for k in ("width", "height"))
    return round(w / 72 * 100), round(h / 72 * 100)


with tempfile.TemporaryDirectory() as tmp:
    def path(name):
        return os.path.join(tmp, name)

    stanford, planar = os.path.join(robots, "stanford.yaml"), os.path.join(robots, "planar3.yaml")
    outputs = {}
    for q in ("torques", "mass-matrix", "inverse-mass-matrix", "bias", "gravity"):
        r = run([ridim, stanford, "--quantity", q, "-o", path(q + ".csv")])
        check(r.returncode == 0, f"ridim --quantity {q}: {r.stderr}")
        outputs[q] = path(q + ".csv")
    r = run([rfdsim, planar, "--free-fall", "--t-end", "1", "-o", path("fall.csv")])
    check(r.returncode == 0, f"rfdsim --free-fall: {r.stderr}")
    r = run([rfdsim, planar, "--free-fall", "--t-end", "1", "--algorithm", "cholesky",
             "-o", path("fall_chol.csv")])
    check(r.returncode == 0, f"rfdsim --algorithm cholesky: {r.stderr}")

    cases = [  # (files, options, image, size)
        ([outputs["torques"]], ["--columns", "tau1,tau2,tau3", "--robot", stanford, "--ridim", ridim],
         "torques.png", (800, 600)),
        ([outputs["mass-matrix"]], ["--columns", "M_1_1,M_2_3,M_3_3", "--overlay"],
         "mass.svg", (640, 480)),
        ([outputs["inverse-mass-matrix"]], ["--columns", "Minv_1_1,Minv_6_6"], "minv.png",
         (500, 400)),
        ([outputs["bias"]], ["--columns", "h1,h2,h3,h4,h5,h6", "--robot", stanford, "--ridim", ridim],
         "bias.png",
         (800, 1200)),
        ([outputs["gravity"]], ["--columns", "g2,g3"], "gravity.svg", (800, 600)),
        ([path("fall.csv")], ["--columns", "q1,q2,q3,kinetic,potential", "--deg",
                              "--robot", planar, "--ridim", ridim, "--title", "planar3 free fall"],
         "fall.png", (900, 900)),
        ([path("fall.csv"), path("fall_chol.csv")],
         ["--columns", "qdd1,qdd2", "--labels", "udu,cholesky"], "two.png", (700, 500)),
    ]
    for files, options, image, size in cases:
        out = path(image)
        r = run([plot, *files, *options, "--size", f"{size[0]}x{size[1]}", "-o", out])
        check(r.returncode == 0, f"plot {image}: exit {r.returncode}: {r.stderr}")
        if r.returncode != 0:
            continue
        got = png_size(out) if image.endswith(".png") else svg_size(out)
        check(got == size, f"plot {image}: size {got}, expected {size}")
        check(os.path.getsize(out) > 5000, f"plot {image}: only {os.path.getsize(out)} bytes")

    # Units from the robot file: revolute and prismatic joints of the Stanford arm
    sys.path.insert(0, os.path.dirname(plot))
    import importlib.machinery
    import importlib.util
    loader = importlib.machinery.SourceFileLoader("plot_module", plot)
    spec = importlib.util.spec_from_loader("plot_module", loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    def types_of(robot):  # None where plot would exit 2
        try:
            return module.joint_types(robot, ridim)
        except SystemExit:
            return None

    stanford_types = ["revolute", "revolute", "prismatic", "revolute", "revolute", "revolute"]
    types = types_of(stanford)
    check(types == stanford_types, f"joint types of the Stanford arm: {types}")
    check(module.unit_of("tau3", types, False)[1] == "N", "tau3 of the Stanford arm in N")
    check(module.unit_of("tau2", types, False)[1] == "N m", "tau2 of the Stanford arm in N m")
    check(module.unit_of("tau2", None, False)[1] == "N m or N", "tau2 without a robot file")
    check(module.unit_of("q3", types, True)[1] == "m", "q3 of the Stanford arm in m with --deg")
    check(module.unit_of("qd1", types, True)[1] == "deg/s", "qd1 in deg/s with --deg")
    check(module.unit_of("M_1_3", types, False)[1] == "kg m", "M_1_3 in kg m")

    # --robot takes a URDF as every command does: the Stanford arm exported to URDF (its boom a
    # prismatic joint) gives the same joint types, and plots; the Panda's URDF, all revolute.
    stanford_urdf = path("stanford.urdf")
    r = run([ridim, stanford, "--export", stanford_urdf])
    check(r.returncode == 0, f"ridim --export {stanford_urdf}: {r.stderr}")
    types = types_of(stanford_urdf)
    check(types == stanford_types, f"joint types of the Stanford arm's URDF: {types}")
    panda = os.path.join(robots, "panda.urdf")
    check(types_of(panda) == ["revolute"] * 7, "joint types of panda.urdf")
    for robot, extra in ((stanford_urdf, []), (panda, ["--tip", "panda_link7"])):
        out = path("urdf.png")
        r = run([plot, outputs["torques"], "--columns", "tau1,tau3", "--robot", robot, *extra,
                 "--ridim", ridim, "-o", out])
        check(r.returncode == 0 and png_size(out) == (800, 600),
              f"plot --robot {os.path.basename(robot)}: exit {r.returncode}: {r.stderr}")

    # Bad input: exit 2, a message naming the column or file, nothing written
    for cmd, needle in [
        ([plot, outputs["torques"], "--columns", "tau9", "-o", path("bad.png")], "tau9"),
        ([plot, path("missing.csv"), "-o", path("bad.png")], "missing.csv"),
        ([plot, outputs["torques"], "--x", "time", "-o", path("bad.png")], "time"),
        ([plot, outputs["torques"], "-o", path("bad.pdf")], "bad.pdf"),
        ([plot, outputs["torques"], "--robot", panda, "--tip", "hand", "--ridim", ridim,
          "-o", path("bad.png")], "--tip hand: no link of that name"),
        ([plot, outputs["torques"], "--robot", stanford, "--ridim", path("nowhere"),
          "-o", path("bad.png")], "nowhere: not an executable"),
    ]:
        r = run(cmd)
        check(r.returncode == 2, f"{cmd[1:]}: exit {r.returncode}, expected 2")
        check(needle in r.stderr, f"{cmd[1:]}: message '{r.stderr.strip()}' lacks '{needle}'")
    check(not os.path.exists(path("bad.png")), "a failed plot wrote its output")

script_checks.finish("test_plot")
