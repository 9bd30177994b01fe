#!/usr/bin/env python3
"""The man pages ridim(1), rfdsim(1) and sweep(1) (docs/man): each has the sections a man page
has, lists exactly the options that the program's --help lists, and renders with groff without a
warning (-ww: all of them).

    test_man_pages.py MAN_DIR RIDIM RFDSIM SWEEP GROFF
"""
import re
import subprocess
import sys
from pathlib import Path

SECTIONS = ["NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "EXIT STATUS", "FILES", "EXAMPLES",
            "SEE ALSO"]
OPTION = re.compile(r"(?<![\w-])--?[A-Za-z][\w-]*")


def help_options(command):
    """The options a --help lists: the names before each description (CLI11's and argparse's
    layouts), without the options named after "Excludes:"."""
    text = subprocess.run(command + ["--help"], capture_output=True, text=True, check=True).stdout
    options, listing = set(), False
    for line in text.splitlines():
        if re.match(r"^(Options|options):", line):
            listing = True
            continue
        if listing and line and not line.startswith(" "):
            listing = False
        if listing and re.match(r"^  -", line):
            names = re.split(r"\s{2,}| Excludes:", line.strip())[0]
            options.update(OPTION.findall(names))
    return options


def page_options(source):
    """The options named in the tags of the OPTIONS section (the line after each .TP)."""
    lines = source.replace("\\-", "-").splitlines()
    start = lines.index(".SH OPTIONS")
    end = next(i for i in range(start + 1, len(lines)) if lines[i].startswith(".SH"))
    options = set()
    for i in range(start, end):
        if lines[i] == ".TP":
            options.update(OPTION.findall(lines[i + 1]))
    return options


def check(page, commands, groff):
    source = page.read_text()
    failures = []
    for section in SECTIONS:
        if f".SH {section}" not in source and f'.SH "{section}"' not in source:
            failures.append(f"{page.name}: no {section} section")
    listed = set().union(*(help_options(c) for c in commands))
    documented = page_options(source)
    for option in sorted(listed - documented):
        failures.append(f"{page.name}: --help lists {option}, the page does not")
    for option in sorted(documented - listed):
        failures.append(f"{page.name}: the page lists {option}, --help does not")
    render = subprocess.run([groff, "-man", "-ww", "-z", str(page)], capture_output=True, text=True)
    if render.returncode != 0 or render.stderr:
        failures.append(f"{page.name}: groff -man -ww: {render.stderr.strip()}")
    return failures


def main():
    man, ridim, rfdsim, sweep, groff = sys.argv[1:6]
    pages = {
        "ridim.1": [[ridim]],
        "rfdsim.1": [[rfdsim]],
        "sweep.1": [[sweep], [sweep, "collect"]],
    }
    failures = []
    for name, commands in pages.items():
        failures += check(Path(man) / name, commands, groff)
    for failure in failures:
        print(failure)
    if failures:
        sys.exit(1)
    print(f"{len(pages)} man pages: sections, options and rendering checked")


if __name__ == "__main__":
    main()
