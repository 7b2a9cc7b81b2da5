TRANSLATIONS = {
    "%(when)s (Brasília time)": "%(when)s (horário de Brasília)",
}
