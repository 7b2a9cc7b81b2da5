"""URLconf of the gunicorn server bench/http_load.py starts: every URL of the project, plus two bare
Django function views (no DRF, no authentication, no database) that are the baseline.

* /bench/bare: `JsonResponse({"ok": True})`.
* /bench/bare-search: the bytes of a real search response (the file BENCH_HTTP_SEARCH_BODY
  names, written by bench/http_load.py after its check request), returned as they are.

Both still go through the project's middleware, as every request of the server does.
"""

import functools
import os
from pathlib import Path

from django.http import HttpResponse, JsonResponse
from django.urls import path
from django.views.decorators.csrf import csrf_exempt

from config import urls


def bare(request):
    return JsonResponse({"ok": True})


@functools.cache
def search_bytes() -> bytes:  # read once per worker, on its first request (the warm-up)
    return Path(os.environ["BENCH_HTTP_SEARCH_BODY"]).read_bytes()


@csrf_exempt  # a POST with the search body, like the real search; DRF views are exempt too
def bare_search(request):
    return HttpResponse(search_bytes(), content_type="application/json")


urlpatterns = [
    path("bench/bare", bare),
    path("bench/bare-search", bare_search),
    *urls.urlpatterns,
]

handler400 = urls.handler400
handler403 = urls.handler403
handler404 = urls.handler404
handler500 = urls.handler500
