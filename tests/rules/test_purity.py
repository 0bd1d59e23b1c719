"""The rules engine is pure Python (STYLE.md point 1): importing it pulls in neither Django
nor any other package outside the standard library, nor the project's Django apps."""

import json
import subprocess
import sys
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[2]

# Modules loaded at interpreter start (site hooks, say) are not the engine's doing.
PROBE = """
import json, sys
before = set(sys.modules)
import clabber_league.rules
import clabber_league.rules.__main__
print(json.dumps(sorted(set(sys.modules) - before)))
"""


def imported_modules() -> list[str]:
    result = subprocess.run(
        [sys.executable, "-c", PROBE],
        capture_output=True,
        text=True,
        cwd=PROJECT,
        timeout=60,
        check=True,
    )
    return json.loads(result.stdout)


def test_importing_the_rules_pulls_in_no_web_framework():
    tops = {name.split(".")[0] for name in imported_modules()}
    assert not tops & {"django", "rest_framework", "celery", "kombu", "redis", "psycopg"}


def test_importing_the_rules_pulls_in_only_the_standard_library():
    outside = {
        name.split(".")[0]
        for name in imported_modules()
        if name.split(".")[0] not in sys.stdlib_module_names
        and name.split(".")[0] not in {"clabber_league", "__main__"}
    }
    assert not outside, sorted(outside)


def test_importing_the_rules_pulls_in_no_other_part_of_the_project():
    project = [
        name
        for name in imported_modules()
        if name.startswith("clabber_league.") and not name.startswith("clabber_league.rules")
    ]
    assert not project, project
