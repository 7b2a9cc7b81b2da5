from django.urls import path

from webhooks import apis

urlpatterns = [
    path("webhooks", apis.WebhookListApi.as_view(), name="webhooks"),
    path("webhooks/<str:webhook_id>", apis.WebhookDetailApi.as_view(), name="webhook-detail"),
    path(
        "webhooks/<str:webhook_id>/recover",
        apis.WebhookRecoverApi.as_view(),
        name="webhook-recover",
    ),
    path(
        "webhooks/<str:webhook_id>/rotate_secret",
        apis.WebhookRotateSecretApi.as_view(),
        name="webhook-rotate-secret",
    ),
    path("webhooks/<str:webhook_id>/test", apis.WebhookTestApi.as_view(), name="webhook-test"),
    path("events", apis.EventListApi.as_view(), name="events"),
    path("events/<str:event_id>", apis.EventDetailApi.as_view(), name="event-detail"),
]
