"""Every page of the accessibility sweep in every language, on a phone (issue 33).

The browser test (``tests/browser/test_languages.py``) visits a rotating share of the pages
in each language on every CI run; this runs its whole sweep: each of the sweep's pages in
each of the seven languages, logged in as the demo club's admin, failing a page on a
``<html lang>`` other than its language, any text of the English catalog left on it, sideways
scrolling at 390 px, or a critical or serious axe-core violation. It prints the time taken
and the machine's other load.

    .venv/bin/python bench/language_sweep.py
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    env = dict(os.environ, CLABBER_WHOLE_SWEEP="1")
    started = time.perf_counter()
    before = os.getloadavg()
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-n",
            "0",
            "tests/browser/test_languages.py::test_every_page_in_every_language",
        ],
        cwd=ROOT,
        env=env,
        check=False,
    )
    print(f"whole language sweep: {time.perf_counter() - started:.0f} s, exit {result.returncode}")
    after = os.getloadavg()
    print(
        f"load average before {before[0]:.2f}, after {after[0]:.2f} (1 min; the sweep's own "
        "browser and server are part of it: compare runs on a quiet machine)"
    )
    return result.returncode


if __name__ == "__main__":
    sys.exit(main())
