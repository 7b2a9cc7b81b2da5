import gc
import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")

application = get_wsgi_application()


def _warm_up() -> None:
    """Load the large reference data (airports, the sandbox's routes) before serving, then move
    everything loaded so far out of the garbage collector's reach: a full collection otherwise
    walks those ~100k long-lived objects and stalls a request for 100+ ms (bench/search.py p99)."""
    import flights.airports
    import flights.suppliers.sandbox  # noqa: F401

    gc.collect()
    gc.freeze()
    # A search allocates ~20k short-lived objects; with the default threshold (700) the young
    # generation is collected ~30 times per search. Collect far less often instead.
    gc.set_threshold(50_000, 20, 100)


_warm_up()
