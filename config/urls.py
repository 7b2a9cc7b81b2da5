from django.contrib import admin
from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from agencies.admin import invitation_accept_view
from api.apis import api_not_found, health
from operations.views import metrics
from panel.sites import (
    PanelPasswordResetCompleteView,
    PanelPasswordResetConfirmView,
    PanelPasswordResetDoneView,
    PanelPasswordResetView,
)

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
]

urlpatterns = [
    path("admin/", include(panel)),
    path("admin/", admin.site.urls),
    # The panel's language switch (Django's set_language view: POST, kept in a cookie).
    path("i18n/", include("django.conf.urls.i18n")),
    path("health", health, name="health"),
    path("metrics", metrics, name="metrics"),  # Prometheus, behind METRICS_TOKEN
    path("api/v1/", include(api_v1)),
    path("api/v1/", include("wallet.urls")),
    path("api/v1/", include("flights.urls")),
    path("api/v1/", include("bookings.urls")),
    path("api/v1/", include("webhooks.urls")),
    # Any other /api/ path: our 404 in the error shape (also when DEBUG is on).
    re_path(r"^api/", api_not_found, name="api-not-found"),
]

handler400 = "api.apis.handler400"
handler403 = "api.apis.handler403"
handler404 = "api.apis.handler404"
handler500 = "api.apis.handler500"
