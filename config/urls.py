from django.contrib import admin
from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from agencies import urls as agencies_urls
from agencies.admin import invitation_accept_view
from api.apis import api_not_found, health
from api.error_docs import error_reference, error_reference_entry
from bookings import urls as bookings_urls
from flights import urls as flights_urls
from operations.views import metrics
from panel.sites import (
    PanelPasswordResetCompleteView,
    PanelPasswordResetConfirmView,
    PanelPasswordResetDoneView,
    PanelPasswordResetView,
)
from wallet import urls as wallet_urls
from webhooks import urls as webhooks_urls

# Before admin/: the admin's own URLs end in a catch-all. The admin's login page links to
# "admin_password_reset" when it exists.
panel = [
    path("password_reset/", PanelPasswordResetView.as_view(), name="admin_password_reset"),
    path(
        "password_reset/done/",
        PanelPasswordResetDoneView.as_view(),
        name="password_reset_done",
    ),
    path(
        "reset/<uidb64>/<token>/",
        PanelPasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "reset/done/",
        PanelPasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
    path("invitation/<str:token>/", invitation_accept_view, name="invitation_accept"),
]

api_v1 = [
    path("schema", SpectacularAPIView.as_view(), name="schema"),
    path("docs", SpectacularSwaggerView.as_view(url_name="schema"), name="docs"),
    path("docs/errors", error_reference, name="error-reference"),
    path("docs/errors/<str:code>", error_reference_entry, name="error-reference-entry"),
]

# The API first, under one prefix: a request's path is matched against the patterns in order,
# and each `include` that does not hold it costs a failed resolution (an exception and its list
# of what was tried). No API path overlaps the panel's, so the order changes nothing else; it
# takes about a third off resolving an API path (docs/performance.md, "API requests").
api_v1 += [
    *wallet_urls.urlpatterns,
    *flights_urls.urlpatterns,
    *bookings_urls.urlpatterns,
    *webhooks_urls.urlpatterns,
    *agencies_urls.urlpatterns,
]

urlpatterns = [
    path("api/v1/", include(api_v1)),
    path("admin/", include(panel)),
    path("admin/", admin.site.urls),
    # The panel's language switch (Django's set_language view: POST, kept in a cookie).
    path("i18n/", include("django.conf.urls.i18n")),
    path("health", health, name="health"),
    path("metrics", metrics, name="metrics"),  # Prometheus, behind METRICS_TOKEN
    # Any other /api/ path: our 404 in the error shape (also when DEBUG is on).
    re_path(r"^api/", api_not_found, name="api-not-found"),
]

handler400 = "api.apis.handler400"
handler403 = "api.apis.handler403"
handler404 = "api.apis.handler404"
handler500 = "api.apis.handler500"
