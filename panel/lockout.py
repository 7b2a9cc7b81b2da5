"""Who django-axes counts a panel login's failures against, and what a success clears
(docs/decisions.md, "The panel's login").

- Failures count per user name (from anywhere) and per address (any user names), each locking
  on its own after `AXES_FAILURE_LIMIT`.
- A browser the user logged in with before, from the same address (a signed cookie naming
  them, and axes' access log of that success), counts only its own failures for that name
  there: someone guessing the password elsewhere cannot lock the real user out of their usual
  browser. Support unlocks the rest (Axes > Access attempts).
- A success clears only that user's failures from that address. Axes' own reset on success
  would also clear every failure counted for the address, other user names' included: one's
  own login between guesses would then reset a victim's count."""

from axes.models import AccessAttempt, AccessLog
from django.conf import settings
from django.contrib.auth.signals import user_logged_in
from django.core import signing
from django.dispatch import receiver

KNOWN_BROWSER_COOKIE = "panel_known_browser"
_SALT = "panel.lockout.known-browser"
_KNOWN_FOR_SECONDS = 60 * 60 * 24 * 180
_NAMES_KEPT = 5  # a shared computer: the last few user names that logged in with it


def lockout_parameters(request, credentials=None) -> list:
    """AXES_LOCKOUT_PARAMETERS: what a login's failures are counted under."""
    username = (credentials or {}).get(settings.AXES_USERNAME_FORM_FIELD)
    if username and _known_browser(request, username):
        return [["username", "ip_address"]]
    return ["username", "ip_address"]


def _known_browser(request, username: str) -> bool:
    cookies = getattr(request, "COOKIES", None)  # axes also asks about stored attempts
    if not cookies or username.lower() not in _names_in_cookie(request):
        return False
    address = getattr(request, "axes_ip_address", None)
    return (
        bool(address) and AccessLog.objects.filter(username=username, ip_address=address).exists()
    )


def _names_in_cookie(request) -> list[str]:
    try:
        names = request.get_signed_cookie(
            KNOWN_BROWSER_COOKIE, salt=_SALT, max_age=_KNOWN_FOR_SECONDS
        )
    except (KeyError, signing.BadSignature):
        return []
    return [n for n in names.split(",") if n]


def remember_browser(request, response, username: str) -> None:
    """After a successful login: this browser is the user's (at the address it logged in from,
    which axes' access log keeps)."""
    names = [username.lower(), *(n for n in _names_in_cookie(request) if n != username.lower())]
    response.set_signed_cookie(
        KNOWN_BROWSER_COOKIE,
        ",".join(names[:_NAMES_KEPT]),
        salt=_SALT,
        max_age=_KNOWN_FOR_SECONDS,
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=True,
        samesite="Lax",
    )


@receiver(user_logged_in)
def _clear_own_failures(sender, request, user, **kwargs):
    address = getattr(request, "axes_ip_address", None) if request is not None else None
    if address:
        AccessAttempt.objects.filter(username=user.get_username(), ip_address=address).delete()
