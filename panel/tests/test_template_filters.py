"""The panel's template filters (panel/templatetags/panel.py) format as core does."""

from decimal import Decimal

from django.template import Context, Template
from django.utils import translation

NBSP = "\N{NO-BREAK SPACE}"


def test_the_template_filter_is_the_same_formatter():
    template = Template("{% load panel %}{{ amount|money }} {{ amount|money:'USD' }}")
    with translation.override("pt-br"):
        rendered = template.render(Context({"amount": Decimal("2550")}))
    assert rendered == f"R${NBSP}2.550,00 US${NBSP}2.550,00"
