"""Production: identical code to local; everything that differs is set in the environment
(DATABASE_URL, REDIS_URL, DJANGO_SECRET_KEY, DJANGO_ALLOWED_HOSTS, EMAIL_URL, DJANGO_SECURE_*)."""

from .base import *
