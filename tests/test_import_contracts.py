"""The layers are import-linter contracts in pyproject.toml (`lint-imports`, run by bin/test and
pre-commit). import-linter checks only the packages it is told of: an app missing from
`root_packages` or from the layers, or still marked optional once it exists, would go
unchecked without a word. These tests say so instead."""

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUTSIDE_THE_LAYERS = {"config", "tests", "bench"}  # the settings above all; not application code

CONFIG = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
CONTRACTS = {contract["id"]: contract for contract in CONFIG["contracts"]}


def packages() -> set[str]:
    """The project's top-level packages."""
    return {init.parent.name for init in ROOT.glob("*/__init__.py")}


def apps() -> set[str]:
    return packages() - OUTSIDE_THE_LAYERS


def layers() -> dict[str, bool]:
    """Each layer's package, and whether it is optional (in parentheses: may be missing)."""
    found = {}
    for layer in CONTRACTS["layers"]["layers"]:
        for name in re.split(r"[|:]", layer):
            found[name.strip().strip("()")] = name.strip().startswith("(")
    return found


def test_every_package_is_analysed():
    assert sorted(packages() - set(CONFIG["root_packages"])) == []


def test_every_app_has_a_layer():
    assert sorted(apps() - set(layers())) == []


def test_a_layer_is_optional_only_while_its_package_does_not_exist():
    optional = {name for name, is_optional in layers().items() if is_optional}
    assert sorted(optional & packages()) == []


def test_no_app_may_import_the_tests_the_benchmarks_or_the_settings():
    forbidding = CONTRACTS["apps-import-no-tests"]
    assert set(forbidding["source_modules"]) == apps()
    assert {"tests", "*.tests", "bench", "config"} <= set(forbidding["forbidden_modules"])
