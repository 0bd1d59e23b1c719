"""Production settings: they refuse to start without a secret, pass Django's deploy checks,
and collect the static files (vendored libraries included) with whitenoise's manifest."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _manage(*args: str, env: dict[str, str], tmp_path: Path) -> subprocess.CompletedProcess:
    full_env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    full_env.update(
        {
            "DJANGO_SETTINGS_MODULE": "clabber_league.config.settings.production",
            "DATABASE_URL": f"sqlite:///{tmp_path / 'prod.sqlite3'}",
        }
    )
    full_env.update(env)
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=full_env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_production_settings_need_a_secret_key(tmp_path):
    result = _manage("check", env={}, tmp_path=tmp_path)
    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY" in result.stderr


def test_production_settings_pass_check_deploy_without_warnings(tmp_path):
    secret = "k" * 20 + "-Q7v#pX2!mZ9@rL4$wT8^yB1&cN6*hJ3(fD5)gS0"
    result = _manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        env={"DJANGO_SECRET_KEY": secret},
        tmp_path=tmp_path,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_collectstatic_with_the_manifest_storage_finds_every_referenced_file(tmp_path):
    result = _manage(
        "collectstatic",
        "--noinput",
        "-v0",
        env={"DJANGO_SECRET_KEY": "build-only", "DJANGO_STATIC_ROOT": str(tmp_path / "s")},
        tmp_path=tmp_path,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert (tmp_path / "s" / "staticfiles.json").exists()
    assert list((tmp_path / "s" / "vendor" / "htmx").glob("htmx.min.*.js"))
