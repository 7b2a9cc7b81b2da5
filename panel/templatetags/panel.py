"""Template filters for what people read: money and times (docs/decisions.md "Panel")."""

from datetime import datetime

from django import template
from django.utils.formats import date_format

from core.audit import action_label
from core.money import money_display

register = template.Library()


@register.filter
def money(value, currency="BRL"):
    """`{{ amount|money }}` → `R$ 1.234,56` (Portuguese) or `R$ 1,234.56` (English)."""
    return money_display(value, currency or "BRL")


@register.filter
def local_departure(value):
    """A supplier's local departure time (`2027-03-10T08:15:00`, the airport's own clock) as
    people write it; it is not converted, and templates say "local time"."""
    if not value:
        return ""
    try:
        moment = datetime.fromisoformat(str(value))
    except ValueError:
        return value
    return f"{date_format(moment, 'SHORT_DATE_FORMAT')} {moment:%H:%M}"


@register.simple_tag
def audit_action_label(entry) -> str:
    """How an audit entry reads: the panel action and its effect, or created/changed/deleted."""
    return action_label(entry)
