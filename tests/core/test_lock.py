"""The lock files pin every dependency of pyproject.toml inside its range (issue 31): the
image (requirements/lock.txt) and CI (requirements/lock-test.txt) install only from them,
so a dependency added to pyproject.toml without `make lock` would be missing there."""

import re
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[2]
PINNED = re.compile(r"^([A-Za-z0-9_.\-\[\]]+)==([^\s;\\]+)", re.M)


def _pins(name: str) -> dict[str, str]:
    text = (ROOT / "requirements" / name).read_text()
    return {canonicalize_name(n.split("[")[0]): v for n, v in PINNED.findall(text)}


def _project() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


@pytest.mark.parametrize(
    ("lock", "extras"), [("lock.txt", []), ("lock-test.txt", ["test"])], ids=["image", "ci"]
)
def test_every_dependency_is_locked_within_its_range(lock, extras):
    project, pins = _project(), _pins(lock)
    wanted = list(project["dependencies"])
    for extra in extras:
        wanted += project["optional-dependencies"][extra]
    stale = []
    for line in wanted:
        requirement = Requirement(line)
        version = pins.get(canonicalize_name(requirement.name))
        if version is None or not requirement.specifier.contains(version, prereleases=True):
            stale.append(f"{requirement} (locked: {version})")
    assert not stale, f"requirements/{lock} is stale, run `make lock`: {stale}"


def test_every_locked_file_has_a_hash():
    for lock in ("lock.txt", "lock-test.txt"):
        text = (ROOT / "requirements" / lock).read_text()
        entries = re.split(r"\n(?=[A-Za-z0-9])", text.split("\n", 2)[2])
        for entry in entries:
            if "==" in entry:
                assert "--hash=sha256:" in entry, entry.splitlines()[0]
