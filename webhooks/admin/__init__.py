"""The panel's webhook pages: agency users see their team's endpoints and every delivery's
attempts, reactivate an endpoint, redeliver an event, send a test event and recover the events
it missed; support staff see all teams. Every action goes through the same services as the API.

One module per list: events.py, endpoints.py (with the webhook portal's pages), deliveries.py."""

from webhooks.admin import deliveries, endpoints, events

__all__ = ["deliveries", "endpoints", "events"]  # imported to register their admins
