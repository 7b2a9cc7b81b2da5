"""Local development: the embedded default (SQLite, filesystem broker) unless told otherwise."""

from .base import *
