"""`metadata`, the free-form key-value data an agency attaches to its records (a booking, a
client), bounded as Stripe bounds it: at most 50 keys of 1 to 40 characters, each value a string
of at most 500 characters. The API (api.fields.MetadataField) and the panel check the same
rule with their own words."""

MAX_METADATA_KEYS = 50
MAX_METADATA_KEY_LENGTH = 40
MAX_METADATA_VALUE_LENGTH = 500


def metadata_problem(data: object) -> tuple[str | None, str] | None:
    """The first problem of `data` as metadata: (the key it is about or None, what is wrong
    in English); None when it is valid."""
    if not isinstance(data, dict):
        return None, "Must be an object."
    if len(data) > MAX_METADATA_KEYS:
        return None, f"At most {MAX_METADATA_KEYS} keys."
    for key, value in data.items():
        if not 1 <= len(key) <= MAX_METADATA_KEY_LENGTH:
            return None, f"Keys are 1 to {MAX_METADATA_KEY_LENGTH} characters."
        if not isinstance(value, str) or len(value) > MAX_METADATA_VALUE_LENGTH:
            return key, f"A string of at most {MAX_METADATA_VALUE_LENGTH} characters."
    return None


def metadata_merged(stored: dict[str, str], changes: dict[str, str] | None) -> dict[str, str]:
    """Stripe's update of metadata: each key given is set, a key given "" is removed, the
    others are kept; `changes` None removes every key."""
    if changes is None:
        return {}
    merged = {**stored, **changes}
    return {key: value for key, value in merged.items() if value != ""}
