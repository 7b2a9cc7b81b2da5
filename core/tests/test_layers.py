"""core is at the bottom (docs/architecture.md, "core at the bottom"): no module of it, its tests
included, imports an app of the project or config, not even inside a function. What core needs
from above is named in a setting (PANEL_HOME_CONTEXT) or found at run time (celery's current
app)."""

import ast
from pathlib import Path

CORE = Path(__file__).resolve().parents[1]
ABOVE_CORE = frozenset({"agencies", "wallet", "flights", "bookings", "webhooks", "api", "config"})


DYNAMIC_IMPORTS = frozenset({"import_module", "import_string", "__import__"})


def imported_modules(tree: ast.AST):
    """(line, module) of every import in the tree, wherever it is (module level, a function, a
    class, a conditional), and of `import_module("…")`-like calls given a literal name; relative
    imports stay inside core and are skipped."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.lineno, node.module
        elif (
            isinstance(node, ast.Call)
            and getattr(node.func, "id", getattr(node.func, "attr", None)) in DYNAMIC_IMPORTS
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            yield node.lineno, node.args[0].value


def imports_from_above(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    return [
        f"{path.relative_to(CORE.parent)}:{line} imports {module}"
        for line, module in imported_modules(tree)
        if module.split(".")[0] in ABOVE_CORE
    ]


def test_core_imports_no_app_and_not_config():
    modules = sorted(CORE.rglob("*.py"))
    assert len(modules) > 20  # the walk found core's modules (and their tests)
    offending = [found for path in modules for found in imports_from_above(path)]
    assert offending == [], "core must not import these:\n" + "\n".join(offending)


def test_the_check_sees_imports_wherever_they_are(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text(
        "import os\n"
        "import config.celery_app\n"
        "from core.money import q\n"
        "def view():\n"
        "    from agencies.home import home_page_context\n"
        "class Thing:\n"
        "    def method(self):\n"
        "        if True:\n"
        "            import wallet.services as services\n"
        "from . import sibling\n"
        "home = import_string('agencies.home.home_page_context')\n"
        "named = import_string(settings.PANEL_HOME_CONTEXT)\n"
    )
    found = {module for _, module in imported_modules(ast.parse(sample.read_text()))}
    assert found == {
        "os",
        "config.celery_app",
        "core.money",
        "agencies.home",
        "wallet.services",
        "agencies.home.home_page_context",
    }
    above = {module for module in found if module.split(".")[0] in ABOVE_CORE}
    assert above == found - {"os", "core.money"}
