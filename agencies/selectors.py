"""Reads of the agencies' records, always scoped to a team and a mode."""

import re

from django.db.models import Q, QuerySet

from agencies.models import Client, Team, name_folded
from core.exceptions import NotFound
from core.tax_ids import SEPARATORS


class ClientNotFound(NotFound):
    """Unknown client id (or another team's or mode's)."""

    code = "client_not_found"
    message = "Client not found"


def client_get(*, team: Team, live_mode: bool, client_id: str) -> Client:
    client = Client.objects.filter(pk=client_id, team=team, live_mode=live_mode).first()
    if client is None:
        raise ClientNotFound()
    return client


TAX_ID_TYPED = re.compile(r"[0-9][0-9\s./-]*")


def client_search(text: str) -> Q:
    """Clients whose name holds `text` (accents and case aside), whose e-mail holds it, or,
    when it is written as a tax id is (digits, with or without dots, dashes, a slash), whose
    CPF or CNPJ holds its digits."""
    text = text.strip()
    match = Q(search_name__contains=name_folded(text)) | Q(email__icontains=text)
    if TAX_ID_TYPED.fullmatch(text):
        match |= Q(tax_id__contains=SEPARATORS.sub("", text))
    return match


def client_list(*, team: Team, live_mode: bool, q: str = "") -> QuerySet[Client]:
    """The team's clients of this mode, newest first; `q` searches them (client_search)."""
    clients = Client.objects.filter(team=team, live_mode=live_mode)
    if q.strip():
        clients = clients.filter(client_search(q))
    return clients.order_by("-created_at", "-id")
