from enum import StrEnum

class AvailableActionsEnum(StrEnum):
    ACCEPT = "accept"
    CANCEL = "cancel"
    CHANGE = "change"
    UPDATE = "update"

    def __str__(self) -> str:
        return str(self.value)
