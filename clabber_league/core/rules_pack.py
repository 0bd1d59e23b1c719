"""The rules engine packed for the phone: ``clabber_league/rules/`` as one zip file.

The offline deal entry runs the server's own engine in the browser (Pyodide). The service
worker caches ``static/rules/clabber_rules.zip``, which holds ``clabber_league/__init__.py``
(the version only) and every ``.py`` file of ``clabber_league/rules/``, byte for byte, and
``static/rules/manifest.json`` names each file with its SHA-256 and the zip's own hash (the
service worker's cache version).

The zip is made the same way every time (sorted names, a fixed date, fixed permissions), so
packing unchanged sources writes the same bytes: ``manage.py pack_rules`` (``make vendor``
runs it) writes both files, and ``tests/core/test_rules_pack.py`` fails when the committed
zip is not what packing the sources now gives (someone edited ``rules/`` without packing).
"""

from __future__ import annotations

import hashlib
import io
import json
import zipfile
from pathlib import Path
from typing import Final

PACKAGE_ROOT: Final = Path(__file__).resolve().parent.parent  # clabber_league/
SOURCE_ROOT: Final = PACKAGE_ROOT.parent  # the repository: names in the zip start here
STATIC_RULES: Final = SOURCE_ROOT / "static" / "rules"
ZIP_NAME: Final = "clabber_rules.zip"
MANIFEST_NAME: Final = "manifest.json"
FIXED_DATE: Final = (2020, 1, 1, 0, 0, 0)


def source_files() -> dict[str, bytes]:
    """Name in the zip (``clabber_league/rules/scoring.py``) -> the source file's bytes."""
    paths = [PACKAGE_ROOT / "__init__.py", *sorted((PACKAGE_ROOT / "rules").glob("*.py"))]
    return {p.relative_to(SOURCE_ROOT).as_posix(): p.read_bytes() for p in paths}


def build_zip(files: dict[str, bytes]) -> bytes:
    """The files as a zip whose bytes depend on nothing but their names and contents."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name in sorted(files):
            info = zipfile.ZipInfo(name, date_time=FIXED_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, files[name], compresslevel=9)
    return buffer.getvalue()


def manifest(files: dict[str, bytes], packed: bytes) -> dict[str, object]:
    return {
        "zip": ZIP_NAME,
        "sha256": hashlib.sha256(packed).hexdigest(),
        "files": {name: hashlib.sha256(files[name]).hexdigest() for name in sorted(files)},
    }


def pack(target: Path = STATIC_RULES) -> dict[str, object]:
    """Write the zip and its manifest into ``target``; the manifest."""
    files = source_files()
    packed = build_zip(files)
    target.mkdir(parents=True, exist_ok=True)
    (target / ZIP_NAME).write_bytes(packed)
    info = manifest(files, packed)
    (target / MANIFEST_NAME).write_text(json.dumps(info, indent=2) + "\n")
    return info
