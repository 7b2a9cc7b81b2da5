"""The test suite's own rules (docs/testing.md): a test module never imports another test
module. Shared helpers live in conftest.py fixtures or in plain helper modules (`factories.py`,
`helpers.py`, `tests/browsers.py`, ...), so each test module reads on its own and pytest never
collects one module's tests through another's imports."""

import ast
from pathlib import Path

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
    assert offenders == [], "move the shared helper to conftest.py or a helper module:\n" + (
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
