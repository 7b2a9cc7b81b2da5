from enum import StrEnum

class ApiKeyRevokedEventType(StrEnum):
    API_KEY_REVOKED = "api_key.revoked"

    def __str__(self) -> str:
        return str(self.value)
