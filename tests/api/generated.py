"""The Python client that openapi-python-client generates from the schema the site serves:
generated and imported the same way by the season's test (``test_generated_client.py``)
and the workflow tests of ``tests/api/clients/``."""

from __future__ import annotations

import importlib
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType

PACKAGE = "clabber_client"
CONFIG = "post_hooks: []\npackage_name_override: clabber_client\n"


def generate(folder: Path, django_db_blocker) -> str:
    """Generate the client into ``folder / PACKAGE`` from the live schema; what the
    generator printed (it must succeed)."""
    from django.test import Client

    with django_db_blocker.unblock():
        schema = Client().get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert schema.status_code == 200
    (folder / "schema.json").write_bytes(schema.content)
    (folder / "config.yaml").write_text(CONFIG)
    generator = Path(sys.executable).with_name("openapi-python-client")
    result = subprocess.run(
        [
            str(generator),
            "generate",
            "--path",
            str(folder / "schema.json"),
            "--output-path",
            str(folder / PACKAGE),
            "--meta",
            "none",
            "--config",
            str(folder / "config.yaml"),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    printed = result.stdout + result.stderr
    assert result.returncode == 0, printed
    return printed


@contextmanager
def imported(folder: Path) -> Iterator[ModuleType]:
    """The package in ``folder``, imported; forgotten again after."""
    sys.path.insert(0, str(folder))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(folder))
        for name in [m for m in sys.modules if m == PACKAGE or m.startswith(PACKAGE + ".")]:
            del sys.modules[name]
