"""panel is plumbing just above core (docs/architecture.md): no module of it, its tests
included, imports an app of the project other than core, nor config, not even inside a
function. It builds on core, Django and third-party libraries; the pages that read the apps
are the apps' own admin modules and the dashboard's."""

from core.tests.layers import forbidden_imports

ABOVE_PANEL = frozenset(
    {"api", "webhooks", "agencies", "wallet", "flights", "bookings", "dashboard", "config"}
)


def test_panel_imports_only_core_of_the_project():
    count, offending = forbidden_imports("panel", ABOVE_PANEL)
    assert count > 8  # the walk found panel's modules (and their tests)
    assert offending == [], "panel must not import these:\n" + "\n".join(offending)
