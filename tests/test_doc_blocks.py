#!/usr/bin/env python3
"""Every shell block of README.md and docs/*.md runs, so that a changed option breaks the build
and not the reader (docs/README.md, "Examples that run"); and every relative link of those pages
reaches a file that exists and, with #anchor, one of its headings.

A fenced block whose info string is `sh` is run with bash -e -o pipefail, the blocks of one
document one after the other in one scratch directory that holds `robots`, `scripts`, `tests`,
`examples` and `python` of the checkout and `build` (this build), so that a block may use what an
earlier block of its document wrote. The line before a block may say
  <!-- not run: REASON -->        it is not run (it installs, needs a cluster, a file of yours...)
  <!-- exit: N -->                it is run and must exit with status N
A `python` block is run by python3 with the build's module on the path (skipped, and counted,
in a build without the module), unless marked not run or marked
  <!-- same as: PATH -->          its text must be the end of the file PATH (an example that runs)

    test_doc_blocks.py SOURCE_DIR BUILD_DIR
"""
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

MARK = re.compile(r"<!--\s*(not run|exit|same as):\s*(.*?)\s*-->")


def blocks(path):
    """(line, language, text, mark, argument) of each fenced sh or python block."""
    lines = path.read_text(encoding="utf-8").splitlines()
    found, i = [], 0
    while i < len(lines):
        fence = re.match(r"^```(\w+)\s*$", lines[i])
        if not fence:
            i += 1
            continue
        end = next(j for j in range(i + 1, len(lines)) if lines[j].startswith("```"))
        language = fence.group(1)
        mark = MARK.search(lines[i - 1]) if i > 0 else None
        if language in ("sh", "python"):
            found.append((i + 1, language, "\n".join(lines[i + 1:end]) + "\n",
                          mark.group(1) if mark else None, mark.group(2) if mark else None))
        i = end + 1
    return found


def slug(heading):
    """GitHub's anchor of a heading: links reduced to their text, code marks and punctuation
    dropped, lower case, spaces as hyphens."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading).replace("`", "").strip().lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(path):
    """The anchors of a Markdown file's headings (outside code), -1, -2... for repeats."""
    seen, fence = {}, False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            fence = not fence
        elif not fence and re.match(r"^#{1,6} ", line):
            base = slug(line.lstrip("#"))
            count = seen.get(base, -1) + 1
            seen[base] = count
            yield base if count == 0 else f"{base}-{count}"


def broken_links(document):
    """The relative links of a page (outside code) whose file or heading does not exist."""
    text = re.sub(r"```.*?```", "", document.read_text(encoding="utf-8"), flags=re.S)
    text = re.sub(r"`[^`\n]*`", "", text)
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"^[a-z]+:", target):
            continue
        path, _, anchor = target.partition("#")
        file = (document.parent / path).resolve() if path else document
        if not file.exists():
            yield f"{target}: no such file"
        elif anchor and file.suffix == ".md" and anchor not in set(anchors(file)):
            yield f"{target}: no such heading"


def scratch_for(source, build):
    work = Path(tempfile.mkdtemp(prefix="doc_blocks_"))
    for name in ["robots", "scripts", "tests", "examples", "python"]:
        (work / name).symlink_to(source / name)
    (work / "build").symlink_to(build)
    (work / "docs" / "reproduce").mkdir(parents=True)
    return work


def main():
    source, build = (Path(a).resolve() for a in sys.argv[1:3])
    # python3 is the one running this (Debian's, with the module's numpy and matplotlib); this
    # build's ridim and rfdsim are on PATH (scripts/plot looks there when the checkout has no
    # build/).
    env = dict(os.environ, PYTHONPATH=str(build / "python"), MPLBACKEND="Agg",
               PYTHONDONTWRITEBYTECODE="1",
               PATH=os.pathsep.join([os.path.dirname(sys.executable), str(build / "apps" / "ridim"),
                                     str(build / "apps" / "rfdsim"), os.environ["PATH"]]))
    documents = [source / "README.md"] + sorted((source / "docs").glob("*.md"))
    failures, ran, skipped = [], 0, 0
    has_module = (build / "python" / "denoc" / "__init__.py").is_file()
    for document in documents:
        for link in broken_links(document):
            failures.append(f"{document.relative_to(source)}: link {link}")
        work = None
        for line, language, text, mark, argument in blocks(document):
            where = f"{document.relative_to(source)}:{line}"
            if mark == "not run":
                if not argument:
                    failures.append(f"{where}: 'not run' needs a reason")
                skipped += 1
                continue
            if mark == "same as":
                example = (source / argument).read_text(encoding="utf-8")
                if not example.endswith(text):
                    failures.append(f"{where}: the block is not the end of {argument}")
                ran += 1
                continue
            if language == "python" and not has_module:
                skipped += 1
                continue
            work = work or scratch_for(source, build)
            command = ["bash", "-e", "-o", "pipefail", "-c", text] if language == "sh" else \
                [sys.executable, "-c", text]
            expected = int(argument) if mark == "exit" else 0
            result = subprocess.run(command, cwd=work, env=env, capture_output=True, text=True,
                                    timeout=300)
            ran += 1
            if result.returncode != expected:
                failures.append(f"{where}: exit status {result.returncode}, expected {expected}\n"
                                f"{text}{result.stderr[-2000:]}")
    for failure in failures:
        print(failure)
    print(f"documentation blocks: {ran} run or compared, {skipped} marked not run, "
          f"{len(failures)} failed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
