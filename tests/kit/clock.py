"""The instant the tests that need a fixed clock live at (the `frozen_time` fixture)."""

from datetime import UTC, datetime

NOW = datetime(2026, 11, 22, 15, 0, tzinfo=UTC)  # a Sunday, 12:00 in São Paulo
