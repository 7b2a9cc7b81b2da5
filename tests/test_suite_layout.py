"""The test suite's own rules (docs/testing.md): a test module never imports another test
module. Shared helpers live in fixtures or in plain helper modules (the kit, tests/kit/; an
app's `factories.py`, `helpers.py`), so each test module reads on its own and pytest never
collects one module's tests through another's imports. Application code never imports test
code, the kit and the benchmarks no test code but the kit's, and the wheel ships no tests."""

import ast
import tomllib
from pathlib import Path

from setuptools import find_namespace_packages

ROOT = Path(__file__).resolve().parents[1]
SKIPPED_FOLDERS = {".venv", "var", "node_modules", "build", "__pycache__"}


def python_files():
    for path in sorted(ROOT.rglob("*.py")):
        parts = path.relative_to(ROOT).parts
        if not SKIPPED_FOLDERS.intersection(parts) and not parts[0].endswith(".egg-info"):
            yield path


def is_test_module(dotted: str) -> bool:
    return dotted.rsplit(".", 1)[-1].startswith("test_")


def test_module_imports(tree: ast.AST, path: Path) -> list[tuple[int, str]]:
    """(line, module) of every import of a test module in `tree`, the source of `path`:
    `import a.tests.test_b`, `from a.tests.test_b import c`, `from a.tests import test_b` and
    `from . import test_b` (a name imported from a package counts when it is a module file)."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names if is_test_module(a.name)]
        elif isinstance(node, ast.ImportFrom):
            module = "." * node.level + (node.module or "")
            if is_test_module(module):
                found.append((node.lineno, module))
                continue
            package = path.parents[node.level - 1] if node.level else ROOT
            package = package.joinpath(*(node.module or "").split(".")) if node.module else package
            found += [
                (node.lineno, f"{module}.{a.name}".replace("..", "."))
                for a in node.names
                if is_test_module(a.name) and (package / f"{a.name}.py").exists()
            ]
    return found


test_module_imports.__test__ = False  # a helper with a test-like name, not a test


def test_no_module_imports_a_test_module():
    offenders = [
        f"{path.relative_to(ROOT)}:{line} imports {module}"
        for path in python_files()
        for line, module in test_module_imports(ast.parse(path.read_text(), str(path)), path)
    ]
    assert offenders == [], "move the shared helper to tests/kit/ or a helper module:\n" + (
        "\n".join(offenders)
    )


def test_the_check_sees_every_form_of_import():
    source = """
import bookings.tests.test_create
from bookings.tests.test_create import book
from bookings.tests import test_create, helpers
from . import test_page
from .test_page import book_two
from core.authentication import test_mode_meta
import bookings.tests.helpers
"""
    in_bookings_tests = ROOT / "bookings" / "tests" / "test_new.py"
    found = test_module_imports(ast.parse(source), in_bookings_tests)
    assert [module for _, module in found] == [
        "bookings.tests.test_create",
        "bookings.tests.test_create",
        "bookings.tests.test_create",
        ".test_page",
        ".test_page",
    ]  # a function named test_* imported from a module is not a test module


# --- Application code never imports the tests; the kit and the benchmarks only the kit --------

DYNAMIC_IMPORTS = frozenset({"import_module", "import_string", "__import__"})
OUTSIDE_THE_APPLICATION = {"tests", "bench"}


def module_name(path: Path) -> list[str]:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return parts[:-1] if parts[-1] == "__init__" else parts


def imported_names(tree: ast.AST, path: Path) -> list[tuple[int, str]]:
    """(line, dotted name) of everything `tree` (the source of `path`) imports, wherever the
    import is (module level, a function, a branch), relative imports made absolute; `from a
    import b` gives `a.b` (b may be a module); `import_module("a.b")`-like calls given a
    literal name count too."""
    package = module_name(path)[: -1 if path.name != "__init__.py" else None]
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, *(node.module.split(".") if node.module else [])])
            found += [(node.lineno, f"{module}.{alias.name}".strip(".")) for alias in node.names]
        elif (
            isinstance(node, ast.Call)
            and getattr(node.func, "id", getattr(node.func, "attr", None)) in DYNAMIC_IMPORTS
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            found.append((node.lineno, node.args[0].value))
    return found


def is_test_code(dotted: str) -> bool:
    """The top-level `tests` package or an app's `tests` (`wallet.tests.factories`)."""
    return "tests" in dotted.split(".")


def offenders(paths, allowed=lambda dotted: False) -> list[str]:
    return [
        f"{path.relative_to(ROOT)}:{line} imports {dotted}"
        for path in paths
        for line, dotted in imported_names(ast.parse(path.read_text(), str(path)), path)
        if is_test_code(dotted) and not allowed(dotted)
    ]


def application_modules():
    """Every module of the application: the packages at the top (and manage.py), not their
    tests, not the top-level tests/ and bench/."""
    for path in python_files():
        parts = path.relative_to(ROOT).parts
        if parts[0] in OUTSIDE_THE_APPLICATION or "tests" in parts[:-1]:
            continue
        if path.name != "conftest.py" and (
            len(parts) == 1 or (ROOT / parts[0] / "__init__.py").exists()
        ):
            yield path


def test_the_application_never_imports_the_tests():
    modules = list(application_modules())
    assert len(modules) > 100 and ROOT / "manage.py" in modules  # the walk found them
    found = offenders(modules)
    assert found == [], "application code must not import test code:\n" + "\n".join(found)


def from_the_kit(dotted: str) -> bool:
    return dotted == "tests.kit" or dotted.startswith("tests.kit.")


def test_the_kit_the_tools_and_the_benchmarks_import_no_test_code_but_the_kit():
    """The kit is what the benchmarks and tools may use of the tests: it is self-contained."""
    kit_and_users = [
        path
        for path in python_files()
        if path.relative_to(ROOT).parts[:2] in {("tests", "kit"), ("tests", "tools")}
        or path.relative_to(ROOT).parts[0] == "bench"
    ]
    assert len(kit_and_users) > 20
    found = offenders(kit_and_users, allowed=from_the_kit)
    assert found == [], "import it through tests/kit, or move it there:\n" + "\n".join(found)


def test_the_import_check_sees_every_form_of_import():
    source = """
import os
import tests.kit.stack
from tests.kit.factories import make_team
from agencies.tests.factories import TeamFactory
from wallet import tests
from .tests import helpers
from ..tests.factories import fund
def lazy():
    from webhooks.tests.receiver import Receiver
    if True:
        import bookings.tests.helpers as helpers
name = import_module("flights.tests.fake_duffel")
core = import_string("core.money.q")
"""
    in_wallet_services = ROOT / "wallet" / "services" / "ledger.py"
    found = [dotted for _, dotted in imported_names(ast.parse(source), in_wallet_services)]
    assert sorted(dotted for dotted in found if is_test_code(dotted)) == [
        "agencies.tests.factories.TeamFactory",
        "bookings.tests.helpers",
        "flights.tests.fake_duffel",
        "tests.kit.factories.make_team",
        "tests.kit.stack",
        "wallet.services.tests.helpers",
        "wallet.tests",
        "wallet.tests.factories.fund",
        "webhooks.tests.receiver.Receiver",
    ]
    assert "os" in found and "core.money.q" in found and not is_test_code("core.money.q")
    assert not from_the_kit("agencies.tests.factories") and from_the_kit("tests.kit.stack")


def test_the_wheel_ships_every_application_package_and_no_test_code():
    """What pyproject.toml's package finder ships (the wheel's packages, as setuptools finds
    them: namespaces too): the application's packages, not tests/, bench/ or an app's tests."""
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    find = pyproject["tool"]["setuptools"]["packages"]["find"]
    shipped = set(
        find_namespace_packages(str(ROOT), include=find["include"], exclude=find["exclude"])
    )
    assert {
        p for p in shipped if is_test_code(p) or p.split(".")[0] in OUTSIDE_THE_APPLICATION
    } == set()
    top_packages = {path.parent.name for path in ROOT.glob("*/__init__.py")}
    assert top_packages - OUTSIDE_THE_APPLICATION <= shipped
    assert {"wallet.services", "api.management.commands", "bookings.migrations"} <= shipped
