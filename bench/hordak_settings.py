"""Settings of the bench's scratch Django when the django-hordak peer runner is selected:
production plus hordak. Only bench/wallet_debits.py points DJANGO_SETTINGS_MODULE here; the
product settings never list hordak (it is in the `bench` extra, not a dependency)."""

from config.settings.production import *  # noqa: F403

# hordak's Account is an mptt tree: django-mptt must be installed next to it (hordak's docs).
INSTALLED_APPS = [*INSTALLED_APPS, "mptt", "hordak"]  # noqa: F405

# Every leg in BRL, like our wallets. DEFAULT_CURRENCY (already "BRL" in base.py) is what new
# hordak accounts accept; the internal currency is the default of a Leg's money fields.
DEFAULT_CURRENCY = "BRL"
HORDAK_INTERNAL_CURRENCY = "BRL"
HORDAK_CURRENCIES = ["BRL"]
# hordak's defaults (numeric(13, 2)), stated: the bench funding (9 × 10^8) must fit.
HORDAK_MAX_DIGITS = 13
HORDAK_DECIMAL_PLACES = 2
