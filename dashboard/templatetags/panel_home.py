"""Filters of the home and team overview pages (dashboard/display.py)."""

from django import template

from panel.admin import local_datetime, status_label

register = template.Library()


@register.filter
def when(value):
    """São Paulo date and time with seconds, the zone under it (as the lists show times)."""
    return local_datetime(value)


@register.simple_tag
def status(value, label):
    """A coloured status label that says the status in words."""
    return status_label(value, label)
