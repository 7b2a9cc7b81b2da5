from enum import StrEnum

class TitleEnum(StrEnum):
    DR = "dr"
    MISS = "miss"
    MR = "mr"
    MRS = "mrs"
    MS = "ms"

    def __str__(self) -> str:
        return str(self.value)
