"""Production: identical code to local; everything that differs is set in the environment
(DATABASE_URL, REDIS_URL, DJANGO_SECRET_KEY, DJANGO_ALLOWED_HOSTS, EMAIL_URL…). Only the
defaults of the HTTPS hardening change here: secure cookies, HSTS, the redirect to HTTPS and
trust in the TLS proxy's headers are on unless the environment turns them off (DJANGO_SECURE_*,
DJANGO_BEHIND_TLS_PROXY), e.g. to run production settings on plain HTTP on localhost."""

from .base import *
from .base import security_settings

vars().update(security_settings(secure_by_default=True))

# HSTS preload is the operator's opt-in (DJANGO_SECURE_HSTS_PRELOAD): asking for it is no defect.
SILENCED_SYSTEM_CHECKS = ["security.W021"]
