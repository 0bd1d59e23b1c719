"""The layers contract of pyproject.toml (tools/layers_contract.py), on a small package of
its own: pages above every app though they sit in their app, and no module left out."""

import os
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LINT_IMPORTS = Path(sys.executable).parent / "lint-imports"

CONFIG = """
[tool.importlinter]
root_package = "shop"
contract_types = ["carved_layers: tools.layers_contract.CarvedLayersContract"]

[[tool.importlinter.contracts]]
id = "layers"
name = "layers"
type = "carved_layers"
layers = ["shop.*.views : (shop.*.api)", "shop.reports", "shop.orders"]
"""


def _lint(tmp_path: Path, modules: dict[str, str]) -> subprocess.CompletedProcess[str]:
    for name, source in {"shop/__init__.py": "", **modules}.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(source))
    (tmp_path / "pyproject.toml").write_text(CONFIG)
    env = {**os.environ, "PYTHONPATH": f"{tmp_path}{os.pathsep}{ROOT}", "COLUMNS": "200"}
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-cache", "pyproject.toml"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )


APPS = {
    "shop/orders/__init__.py": "",
    "shop/orders/services.py": "",
    "shop/orders/views.py": "from shop.orders import services\nfrom shop.reports import totals\n",
    "shop/reports/__init__.py": "",
    "shop/reports/totals.py": "from shop.orders import services\n",
}


def test_a_page_may_import_any_app_even_one_above_its_own(tmp_path):
    result = _lint(tmp_path, APPS)
    assert result.returncode == 0, result.stdout
    assert "Contracts: 1 kept, 0 broken." in result.stdout


def test_a_service_that_imports_a_page_of_its_own_app_breaks_the_contract(tmp_path):
    result = _lint(tmp_path, {**APPS, "shop/orders/services.py": "from shop.orders import views\n"})
    assert result.returncode == 1
    assert "shop.orders.services is not allowed to import shop.orders.views" in result.stdout


def test_a_lower_app_that_imports_a_higher_one_breaks_the_contract(tmp_path):
    result = _lint(
        tmp_path, {**APPS, "shop/orders/services.py": "from shop.reports import totals\n"}
    )
    assert result.returncode == 1
    assert "shop.orders.services is not allowed to import shop.reports:" in result.stdout
    assert "- shop.orders.services -> shop.reports.totals" in result.stdout


def test_a_module_in_no_layer_breaks_the_contract(tmp_path):
    result = _lint(tmp_path, {**APPS, "shop/gifts/__init__.py": "", "shop/gifts/cards.py": ""})
    assert result.returncode == 1
    assert "in no layer" in result.stdout
    assert "- shop.gifts.cards" in result.stdout
