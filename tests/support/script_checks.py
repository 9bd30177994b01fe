"""What the tests of the scripts share: they run a script or an app as a user would, collect
every failed check (so that one run lists all of them, not only the first), and end with exit 1
when any failed.

    import script_checks
    from script_checks import check, run
    ...
    script_checks.finish("test_name")
"""
import subprocess
import sys

failures = []


def check(condition, what):
    """Records a failure (and prints it at once, next to the output that explains it)."""
    if not condition:
        failures.append(what)
        print(f"FAIL: {what}")
    return condition


def run(cmd, **kwargs):
    """Runs cmd (a list, no shell), capturing its standard output and error as text."""
    return subprocess.run(cmd, capture_output=True, text=True, **kwargs)


def finish(name):
    """Exits 1 when a check failed, else prints that all passed."""
    if failures:
        print(f"{name}: {len(failures)} failure(s)")
        sys.exit(1)
    print(f"{name}: all checks passed")
