from django import template

from webhooks.display import attempt_error_for_people

register = template.Library()


@register.filter
def attempt_error(stored: str) -> str:
    return attempt_error_for_people(stored or "")
