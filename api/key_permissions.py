"""Restricted API keys: the permissions a key may carry, and which one each API request needs
(docs/decisions.md, "Restricted API keys").

A key with no permissions (every key made before them, and any key made with "full access")
may do everything. A key with some may do only what they name: each API view declares the
resource it works on (`ApiView.permission_resource`), a read (GET, HEAD, OPTIONS) needs
`<resource>:read` and any other method `<resource>:write`; `ApiView.method_permissions`
overrides a method (a flight search is a POST that only reads). A view that declares nothing
cannot answer (api/tests/test_key_permissions.py walks every route).

The list lives here, below the apps, because ApiView enforces it; agencies' ApiKey stores it.
"""

from rest_framework import status

from core.exceptions import ApplicationError

PERMISSIONS: tuple[str, ...] = (
    "flights:read",
    "bookings:read",
    "bookings:write",
    "wallet:read",
    "wallet:write",
    "webhooks:read",
    "webhooks:write",
    "events:read",
    "clients:read",
    "clients:write",
    "reports:read",
)
READ_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


class PermissionDenied(ApplicationError):
    """A restricted API key used outside its permissions; `details.permission` names the one
    the request needs."""

    status_code = status.HTTP_403_FORBIDDEN
    code = "permission_denied"
    message = "This API key does not have the {permission} permission"

    def __init__(self, permission: str):
        super().__init__(
            self.message.format(permission=permission), details={"permission": permission}
        )


def permission_for(*, resource: str | None, overrides: dict[str, str], method: str) -> str:
    """The permission a request with `method` needs on a view of `resource`."""
    method = method.upper()
    if method in overrides:
        permission = overrides[method]
    elif resource is None:
        raise LookupError(f"no permission declared for {method}")
    else:
        permission = f"{resource}:{'read' if method in READ_METHODS else 'write'}"
    if permission not in PERMISSIONS:
        raise LookupError(f"{permission!r} is not an API key permission")
    return permission


def is_allowed(granted, permission: str) -> bool:
    """Whether a key with `granted` permissions (empty or None: full access) may use
    `permission`."""
    return not granted or permission in granted
