from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from django.conf import settings


def iso_utc(value: datetime | None) -> str | None:
    """The wire format of a timestamp: ISO 8601 in UTC, milliseconds, trailing `Z`."""
    if value is None:
        return None
    return value.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def business_date(moment: datetime) -> date:
    """The calendar day an instant falls on in the business time zone (America/Sao_Paulo)."""
    return moment.astimezone(ZoneInfo(settings.BUSINESS_TIME_ZONE)).date()


def business_day_bounds(day: date) -> tuple[datetime, datetime]:
    """[start, end) of a calendar day in the business time zone (America/Sao_Paulo): date
    filters and daily limits count São Paulo days."""
    zone = ZoneInfo(settings.BUSINESS_TIME_ZONE)
    start = datetime.combine(day, time.min, tzinfo=zone)
    return start, datetime.combine(day + timedelta(days=1), time.min, tzinfo=zone)
