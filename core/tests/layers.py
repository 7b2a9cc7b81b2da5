"""What a package imports, read from its source (the layer tests of core and panel use it):
every `import x` and `from x import …`, at module level or nested in a function, class or
branch, and every `import_module("…")` / `import_string("…")` / `__import__("…")` given a
literal name."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DYNAMIC_IMPORTS = frozenset({"import_module", "import_string", "__import__"})


def imported_modules(tree: ast.AST):
    """(line, module) of every import in the tree, wherever it is (module level, a function, a
    class, a conditional), and of `import_module("…")`-like calls given a literal name; relative
    imports stay inside their package and are skipped."""
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


def forbidden_imports(package: str, forbidden: frozenset[str]) -> tuple[int, list[str]]:
    """How many modules `package` (a top-level folder, its tests included) has, and where one
    imports a top-level package named in `forbidden` ("core/x.py:3 imports agencies.models")."""
    modules = sorted((ROOT / package).rglob("*.py"))
    found = []
    for path in modules:
        tree = ast.parse(path.read_text(), filename=str(path))
        found += [
            f"{path.relative_to(ROOT)}:{line} imports {module}"
            for line, module in imported_modules(tree)
            if module.split(".")[0] in forbidden
        ]
    return len(modules), found
