"""The error reference the service serves: `/api/v1/docs/errors` (every code) and
`/api/v1/docs/errors/<code>` (one code: each status it has, its messages, what to do and whether
a retry can succeed). Every error body's `doc_url` is the second (api.exceptions.error_doc_url).
Built from the same catalogue as docs/errors.md, in English as the API is."""

from dataclasses import dataclass

from django.http import Http404
from django.shortcuts import render
from django.views.decorators.http import require_safe

from api.error_catalogue import is_supplier_refusal, load_error_catalogue, when
from api.error_remedies import SUPPLIER_GROUP_OF, SUPPLIER_GROUPS, Remedy, remedy_for
from core.exceptions import CataloguedError


@dataclass(frozen=True)
class ReferenceEntry:
    code: str
    status: int
    messages: list[str]
    when: str
    remedy: Remedy | None
    group_title: str  # a supplier refusal's group, or ""


def reference_entries() -> list[ReferenceEntry]:
    return [
        _reference_entry(entry)
        for entry in sorted(load_error_catalogue().values(), key=lambda e: (e.code, e.status))
    ]


def _reference_entry(entry: CataloguedError) -> ReferenceEntry:
    supplier = is_supplier_refusal(entry)
    group = SUPPLIER_GROUP_OF.get(entry.code) if supplier else None
    return ReferenceEntry(
        code=entry.code,
        status=entry.status,
        messages=entry.messages,
        when=when(entry),
        remedy=remedy_for(entry.code, supplier=supplier),
        group_title=group.title if group else "",
    )


@require_safe
def error_reference(request):
    return render(
        request,
        "api/error_reference.html",
        {"entries": reference_entries(), "groups": SUPPLIER_GROUPS, "code": None},
    )


@require_safe
def error_reference_entry(request, code: str):
    entries = [entry for entry in reference_entries() if entry.code == code]
    if not entries:
        raise Http404("Unknown error code")
    return render(
        request,
        "api/error_reference.html",
        {"entries": entries, "groups": (), "code": code},
    )
