"""core is at the bottom (docs/architecture.md, "core at the bottom"): no module of it, its tests
included, imports an app of the project or config, not even inside a function. What core needs
from above is found at run time: celery's current app, each app's audit actions through the app
registry (core/audit.py)."""

import ast

from core.tests.layers import forbidden_imports, imported_modules

ABOVE_CORE = frozenset(
    {
        "panel",
        "api",
        "webhooks",
        "agencies",
        "wallet",
        "flights",
        "bookings",
        "dashboard",
        "config",
    }
)


def test_core_imports_no_app_and_not_config():
    count, offending = forbidden_imports("core", ABOVE_CORE)
    assert count > 20  # the walk found core's modules (and their tests)
    assert offending == [], "core must not import these:\n" + "\n".join(offending)


def test_the_check_sees_imports_wherever_they_are(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text(
        "import os\n"
        "import config.celery_app\n"
        "from core.money import q\n"
        "def view():\n"
        "    from dashboard.display import home_page_context\n"
        "class Thing:\n"
        "    def method(self):\n"
        "        if True:\n"
        "            import wallet.services as services\n"
        "from . import sibling\n"
        "home = import_string('dashboard.display.home_page_context')\n"
        "site = import_module('panel.sites')\n"
        "named = import_string(settings.AXES_CLIENT_IP_CALLABLE)\n"
    )
    found = {module for _, module in imported_modules(ast.parse(sample.read_text()))}
    assert found == {
        "os",
        "config.celery_app",
        "core.money",
        "dashboard.display",
        "wallet.services",
        "dashboard.display.home_page_context",
        "panel.sites",
    }
    above = {module for module in found if module.split(".")[0] in ABOVE_CORE}
    assert above == found - {"os", "core.money"}
