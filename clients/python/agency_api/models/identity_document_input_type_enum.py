from enum import StrEnum

class IdentityDocumentInputTypeEnum(StrEnum):
    KNOWN_TRAVELER_NUMBER = "known_traveler_number"
    PASSPORT = "passport"
    TAX_ID = "tax_id"

    def __str__(self) -> str:
        return str(self.value)
