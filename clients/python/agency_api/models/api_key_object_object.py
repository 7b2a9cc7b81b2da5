from enum import StrEnum

class ApiKeyObjectObject(StrEnum):
    API_KEY = "api_key"

    def __str__(self) -> str:
        return str(self.value)
