"""No module of the project imports a private name (`_name`) from another module: a name that
two modules share is public, in a module named for it, and a private one is its module's own
(Zulip's rule for helpers: they say who may call them). Checked with `ast` on every module,
application code, tests and bench alike, for `from x import _y` wherever it is (module level, a
function, a branch), relative imports included. A library's private name is the library's
business and is not checked here (bookings/services/recording.py calls django-auditlog's
`_create_log_entry` on purpose, to write the booking's audit entry without a second read)."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SKIPPED_FOLDERS = {".venv", "var", "node_modules", "build", "__pycache__"}


def python_files():
    for path in sorted(ROOT.rglob("*.py")):
        parts = path.relative_to(ROOT).parts
        if not SKIPPED_FOLDERS.intersection(parts) and not parts[0].endswith(".egg-info"):
            yield path


def project_modules() -> frozenset[str]:
    """The top-level names of the project's own modules: its packages and root modules."""
    return frozenset(path.relative_to(ROOT).parts[0].removesuffix(".py") for path in python_files())


def is_private(name: str) -> bool:
    return name.startswith("_") and name != "_" and not name.startswith("__")


def private_imports(tree: ast.AST, ours: frozenset[str]) -> list[tuple[int, str, str]]:
    """(line, name, module) of every `from module import _name` in `tree` whose module is one
    of ours (a top-level name in `ours`, or relative). The name imported counts, not its alias:
    `from x import y as _y` imports a public name."""
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.ImportFrom):
            continue
        module = "." * node.level + (node.module or "")
        if node.level == 0 and module.split(".")[0] not in ours:
            continue
        found += [(node.lineno, a.name, module) for a in node.names if is_private(a.name)]
    return found


def test_no_module_imports_a_private_name_of_another():
    ours = project_modules()
    assert {"bookings", "flights", "wallet", "tests", "bench", "config"} <= ours
    found = {
        (str(path.relative_to(ROOT)), line, name, module)
        for path in python_files()
        for line, name, module in private_imports(ast.parse(path.read_text(), str(path)), ours)
    }
    offenders = sorted(
        f"{path}:{line} imports {name} from {module}" for path, line, name, module in found
    )
    assert offenders == [], (
        "a name another module uses is public (in a module named for it):\n" + "\n".join(offenders)
    )


def test_the_check_sees_every_form_of_private_import():
    source = """
from bookings.services.recording import record_ticketed, _locked
from flights.suppliers.sandbox.common import _digest as digest
from . import _helpers
from .network import _legs
from django.utils.translation import gettext as _t
from auditlog.receivers import _create_log_entry
from wallet import services as _services
from core.money import __all__
def view():
    from wallet.selectors import _live_balance
if True:
    from api.authentication import _key_for_secret
"""
    found = private_imports(ast.parse(source), frozenset({"bookings", "flights", "wallet", "api"}))
    assert sorted(found) == [
        (2, "_locked", "bookings.services.recording"),
        (3, "_digest", "flights.suppliers.sandbox.common"),
        (4, "_helpers", "."),
        (5, "_legs", ".network"),
        (11, "_live_balance", "wallet.selectors"),
        (13, "_key_for_secret", "api.authentication"),
    ]
