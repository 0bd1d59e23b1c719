"""The rules engine packed for the phone: ``clabber_league/rules/`` as one zip file.

The offline deal entry runs the server's own engine in the browser (Pyodide). The static
file ``rules/clabber_rules.zip`` holds ``clabber_league/__init__.py`` (the version only) and
every ``.py`` file of ``clabber_league/rules/``, byte for byte; ``rules/manifest.json``
names each file with its SHA-256, and the zip's own hash (part of the service worker's
version, so phones fetch a new engine when the rules change).

Nothing packed is committed: :class:`RulesPackFinder` (in ``STATICFILES_FINDERS``) packs
the sources when the static files are looked for: by ``runserver`` and the test server on
each request for them, by ``collectstatic`` (the Docker image's build) for production. So
the phones' engine can never be older than the server's, and no step can be forgotten
after an edit of ``rules/``. The zip is made the same way every time (sorted names, a
fixed date, fixed permissions): the same sources give the same bytes and the same hash.
``tests/site/test_rules_pack.py`` holds the served zip to the sources, byte for byte.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import tempfile
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final

from django.contrib.staticfiles.finders import BaseFinder
from django.core.files.storage import FileSystemStorage

PACKAGE_ROOT: Final = Path(__file__).resolve().parent.parent  # clabber_league/
SOURCE_ROOT: Final = PACKAGE_ROOT.parent  # names in the zip start here
PREFIX: Final = "rules"
ZIP_NAME: Final = "clabber_rules.zip"
MANIFEST_NAME: Final = "manifest.json"
NAMES: Final = (f"{PREFIX}/{ZIP_NAME}", f"{PREFIX}/{MANIFEST_NAME}")
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


def manifest(files: dict[str, bytes], packed: bytes) -> dict[str, Any]:
    return {
        "zip": ZIP_NAME,
        "sha256": hashlib.sha256(packed).hexdigest(),
        "files": {name: hashlib.sha256(files[name]).hexdigest() for name in sorted(files)},
    }


def pack() -> tuple[Path, dict[str, Any]]:
    """Pack the sources as they are now into a folder of their own (named by the zip's
    hash, under the system's temporary folder): that folder (holding ``rules/``) and the
    manifest."""
    files = source_files()
    packed = build_zip(files)
    info = manifest(files, packed)
    root = Path(tempfile.gettempdir()) / f"clabber-rules-{info['sha256'][:20]}"
    target = root / PREFIX
    if not (target / MANIFEST_NAME).exists():
        target.mkdir(parents=True, exist_ok=True)
        for name, data in ((ZIP_NAME, packed), (MANIFEST_NAME, json.dumps(info, indent=2))):
            part = target / f".{name}.{os.getpid()}"
            part.write_bytes(data if isinstance(data, bytes) else data.encode())
            part.replace(target / name)  # whole or not at all, for a concurrent reader
    return root, info


class RulesPackFinder(BaseFinder):
    """A static-files finder for ``rules/clabber_rules.zip`` and ``rules/manifest.json``,
    packed from ``clabber_league/rules/`` when they are looked for."""

    def check(self, **kwargs: Any) -> list:
        return []

    def find(self, path: str, find_all: bool = False, **kwargs: Any) -> Any:
        if kwargs.get("all"):  # Django < 6.1 may still say ``all``
            find_all = True
        if path.replace("\\", "/") not in NAMES:
            return [] if find_all else None
        full = str(pack()[0] / path)
        return [full] if find_all else full

    def list(self, ignore_patterns: Any) -> Iterator[tuple[str, FileSystemStorage]]:
        root, _ = pack()
        storage = FileSystemStorage(location=str(root))
        for name in NAMES:
            yield name, storage
