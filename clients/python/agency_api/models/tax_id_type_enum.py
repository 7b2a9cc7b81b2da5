from enum import StrEnum

class TaxIdTypeEnum(StrEnum):
    CNPJ = "cnpj"
    CPF = "cpf"

    def __str__(self) -> str:
        return str(self.value)
