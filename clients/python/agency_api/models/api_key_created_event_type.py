from enum import StrEnum

class ApiKeyCreatedEventType(StrEnum):
    API_KEY_CREATED = "api_key.created"

    def __str__(self) -> str:
        return str(self.value)
