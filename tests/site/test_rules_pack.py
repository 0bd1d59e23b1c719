"""The rules engine the phones run is the server's, byte for byte (issue 14).

``rules/clabber_rules.zip`` is never committed: the static-files finder packs
``clabber_league/rules/`` when it is looked for (``runserver``, the test server,
``collectstatic``), so it cannot be older than the sources. These tests hold what the
site serves and what ``collectstatic`` copies to the sources, file by file.
"""

import hashlib
import io
import json
import zipfile
from pathlib import Path

from django.contrib.staticfiles import finders
from django.core.management import call_command

from clabber_league.site import rules_pack


def _inside(packed: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(packed)) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def test_the_served_engine_holds_every_rules_file_byte_for_byte():
    served = Path(finders.find("rules/clabber_rules.zip")).read_bytes()
    inside = _inside(served)
    sources = {
        path.relative_to(rules_pack.SOURCE_ROOT).as_posix(): path.read_bytes()
        for path in [
            rules_pack.PACKAGE_ROOT / "__init__.py",
            *(rules_pack.PACKAGE_ROOT / "rules").glob("*.py"),
        ]
    }
    assert sorted(inside) == sorted(sources)
    assert "clabber_league/rules/calculator.py" in inside
    for name, data in sources.items():
        assert inside[name] == data, f"{name} differs from the packed engine"


def test_the_manifest_names_each_file_and_the_zip_by_its_hash():
    served = Path(finders.find("rules/clabber_rules.zip")).read_bytes()
    info = json.loads(Path(finders.find("rules/manifest.json")).read_text())
    assert info["sha256"] == hashlib.sha256(served).hexdigest()
    assert info["files"] == {
        name: hashlib.sha256(data).hexdigest() for name, data in sorted(_inside(served).items())
    }


def test_packing_the_same_sources_gives_the_same_bytes():
    files = rules_pack.source_files()
    assert rules_pack.build_zip(files) == rules_pack.build_zip(dict(reversed(files.items())))


def test_collectstatic_copies_the_packed_engine(tmp_path, settings):
    settings.STATIC_ROOT = tmp_path
    call_command("collectstatic", "--noinput", verbosity=0, ignore_patterns=["vendor", "css"])
    collected = (tmp_path / "rules" / "clabber_rules.zip").read_bytes()
    assert collected == Path(finders.find("rules/clabber_rules.zip")).read_bytes()


def test_the_engine_needs_nothing_outside_the_pack():
    """What the phone imports imports only the standard library and the packed files."""
    for name, data in rules_pack.source_files().items():
        for line in data.decode().splitlines():
            words = line.split()
            if line.startswith(("import ", "from ")) and len(words) > 1:
                module = words[1]
                assert not module.startswith(("django", "rest_framework", "celery")), (name, line)
                if module.startswith("clabber_league"):
                    assert module.startswith("clabber_league.rules"), (name, line)


def test_the_packed_engine_scores_klaverjas_on_its_own(tmp_path):
    """The phone's engine knows both klaverjas rule sets: the zip alone, imported apart from
    the server's package, scores a klaverjas deal with roem claimed per trick."""
    import subprocess
    import sys

    served = Path(finders.find("rules/clabber_rules.zip")).read_bytes()
    assert "clabber_league/rules/klaverjas.py" in _inside(served)
    packed = tmp_path / "clabber_rules.zip"
    packed.write_bytes(served)
    deal = {
        "ruleset": "klaverjas-amsterdams",
        "maker": "A",
        "trump": "hearts",
        "points_with_last": {"A": 82, "B": 80},
        "last_trick": "A",
        "roem": {"B": [{"trick": 3, "kind": "run-3", "suit": "clubs", "top": "K"}]},
    }
    script = (
        "import json, sys; sys.path.insert(0, sys.argv[1]); "
        "from clabber_league.rules.offline import call; "
        "print(call('score_deal', sys.argv[2]))"
    )
    out = subprocess.run(
        [sys.executable, "-I", "-c", script, str(packed), json.dumps(deal)],
        capture_output=True,
        text=True,
        check=True,
        cwd=tmp_path,
    ).stdout
    answer = json.loads(out)["ok"]
    assert answer["outcome"] == "set" and answer["score"] == {"A": 0, "B": 182}
