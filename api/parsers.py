"""The JSON body parser of every API endpoint: DRF's, plus the limits of docs/decisions.md
"Input limits" on what any JSON document may hold, checked once for all endpoints:

- nesting at most API_MAX_JSON_DEPTH levels (Python's parser raises RecursionError, a 500,
  around a thousand);
- strings (and keys) without NUL characters (PostgreSQL refuses them in text) or unpaired
  surrogates (`"\\ud800"` is valid JSON but not text that can be stored or rendered);
- numbers finite (`1e999` parses to infinity) and integers within 64 bits (what JSON clients
  and our renderer read exactly).

A violation is `400 invalid_request` naming where in the body it is."""

import math
import re

from django.conf import settings
from rest_framework.parsers import JSONParser

from core.exceptions import InvalidRequest

UNSTORABLE_CHARACTERS = re.compile("[\x00\ud800-\udfff]")
MAX_INTEGER = 2**63 - 1


def _where(path) -> str:
    """`passengers[0].given_name` from the linked path (parent, key)."""
    keys = []
    while path is not None:
        path, key = path
        keys.append(key)
    text = ""
    for key in reversed(keys):
        text += f"[{key}]" if isinstance(key, int) else (f".{key}" if text else key)
    return text or "body"


def _refuse(path, problem: str):
    raise InvalidRequest(details={_where(path): problem})


def check_json_document(document, *, max_depth: int) -> None:
    """Raise InvalidRequest unless the parsed document keeps the limits above."""
    stack: list[tuple[object, int, tuple | None]] = [(document, 1, None)]
    while stack:
        value, depth, path = stack.pop()
        if isinstance(value, dict | list):
            if depth > max_depth:
                _refuse(path, f"Nested deeper than {max_depth} levels.")
            items = value.items() if isinstance(value, dict) else enumerate(value)
            for key, item in items:
                if isinstance(key, str) and UNSTORABLE_CHARACTERS.search(key):
                    _refuse(path, "Keys must not contain NUL characters or unpaired surrogates.")
                stack.append((item, depth + 1, (path, key)))
        elif isinstance(value, str):
            if UNSTORABLE_CHARACTERS.search(value):
                _refuse(path, "Must not contain NUL characters or unpaired surrogates.")
        elif isinstance(value, bool) or value is None:
            continue
        elif isinstance(value, int):
            if abs(value) > MAX_INTEGER:
                _refuse(path, "Integers must fit in 64 bits.")
        elif isinstance(value, float) and not math.isfinite(value):
            _refuse(path, "Numbers must be finite.")


class ApiJSONParser(JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        try:
            document = super().parse(stream, media_type, parser_context)
        except RecursionError:
            max_depth = settings.API_MAX_JSON_DEPTH
            raise InvalidRequest(
                details={"body": f"Nested deeper than {max_depth} levels."}
            ) from None
        check_json_document(document, max_depth=settings.API_MAX_JSON_DEPTH)
        return document
