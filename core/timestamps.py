from datetime import UTC, datetime


def iso_utc(value: datetime | None) -> str | None:
    """The wire format of a timestamp: ISO 8601 in UTC, milliseconds, trailing `Z`."""
    if value is None:
        return None
    return value.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
