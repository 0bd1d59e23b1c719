"""The rules engine the phones run is the server's, byte for byte (issue 14).

``static/rules/clabber_rules.zip`` is committed (the service worker caches it); packing the
sources again must give exactly those bytes, so editing ``clabber_league/rules/`` without
``make rules-pack`` fails here, and CI with it.
"""

import hashlib
import io
import json
import zipfile

from clabber_league.core import rules_pack


def test_the_packed_engine_holds_every_rules_file_byte_for_byte():
    packed = (rules_pack.STATIC_RULES / rules_pack.ZIP_NAME).read_bytes()
    with zipfile.ZipFile(io.BytesIO(packed)) as archive:
        inside = {name: archive.read(name) for name in archive.namelist()}
    sources = rules_pack.source_files()
    assert sorted(inside) == sorted(sources)
    assert "clabber_league/rules/calculator.py" in inside
    for name, data in sources.items():
        assert inside[name] == data, f"{name} differs from the packed engine: make rules-pack"


def test_packing_again_gives_the_committed_zip_and_manifest():
    packed = (rules_pack.STATIC_RULES / rules_pack.ZIP_NAME).read_bytes()
    assert rules_pack.build_zip(rules_pack.source_files()) == packed, "run make rules-pack"
    manifest = json.loads((rules_pack.STATIC_RULES / rules_pack.MANIFEST_NAME).read_text())
    assert manifest["sha256"] == hashlib.sha256(packed).hexdigest()
    assert manifest["files"] == {
        name: hashlib.sha256(data).hexdigest()
        for name, data in sorted(rules_pack.source_files().items())
    }


def test_the_engine_needs_nothing_outside_the_pack():
    """What the phone imports (``rules.offline``) imports only the standard library and
    the packed files."""
    sources = rules_pack.source_files()
    for name, data in sources.items():
        for line in data.decode().splitlines():
            words = line.split()
            if line.startswith(("import ", "from ")) and len(words) > 1:
                module = words[1]
                assert not module.startswith(("django", "rest_framework", "celery")), (name, line)
                if module.startswith("clabber_league"):
                    assert module.startswith("clabber_league.rules"), (name, line)
