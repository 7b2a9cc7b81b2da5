"""Settings of the gunicorn server bench/http_load.py starts: production's, with the bench URLconf
(the project's URLs plus the bare baseline views of bench/http_urls.py)."""

from config.settings.production import *  # noqa: F403

ROOT_URLCONF = "bench.http_urls"
