"""The published clients' generation steps that run in Python (`manage.py api_clients`; bin/clients
runs them in order, with the Node.js ones between): the schema, the Python package, and the
Postman collection's clean-up. tests/test_published_clients.py calls the same functions to check
that what is committed in clients/ is current."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from django.conf import settings

ROOT = Path(settings.BASE_DIR)
CLIENTS = ROOT / "clients"
SCHEMA = CLIENTS / "openapi.json"
PYTHON_CLIENT = CLIENTS / "python"
POSTMAN = CLIENTS / "postman" / "collection.json"
PYTHON_CONFIG = CLIENTS / "python-client.yml"
PACKAGE = "agency_api"


def schema_text() -> str:
    """The schema as the service serves it, as stable text (Django set up by the caller)."""
    from api.error_catalogue import generated_schema

    return json.dumps(generated_schema(), indent=2, default=str, ensure_ascii=False) + "\n"


def write_schema() -> None:
    SCHEMA.write_text(schema_text(), encoding="utf-8")


def python_generator() -> str:
    found = shutil.which(
        "openapi-python-client",
        path=os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")]),
    )
    if found is None:
        raise RuntimeError("openapi-python-client is not installed (the dev extra installs it)")
    return found


def generate_python(output: Path, *, schema: Path = SCHEMA) -> None:
    """openapi-python-client's package for `schema` in `output` (replaced)."""
    if output.exists():
        shutil.rmtree(output)
    completed = subprocess.run(  # noqa: S603 - fixed arguments
        [
            python_generator(),
            "generate",
            "--path",
            str(schema),
            "--meta",
            "setup",
            "--output-path",
            str(output),
            "--config",
            str(PYTHON_CONFIG),
        ],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    if completed.returncode != 0 or "Unable to" in completed.stdout:
        raise RuntimeError(completed.stdout + completed.stderr)


def without_ids(value):
    """openapi-to-postmanv2 gives every item a random id: dropped, so a regeneration of the
    same schema changes nothing but the example values it draws."""
    if isinstance(value, dict):
        return {k: without_ids(v) for k, v in value.items() if k not in ("id", "_postman_id")}
    if isinstance(value, list):
        return [without_ids(item) for item in value]
    return value


def clean_postman() -> None:
    collection = json.loads(POSTMAN.read_text(encoding="utf-8"))
    POSTMAN.write_text(
        json.dumps(without_ids(collection), indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
    )


def postman_requests(collection: dict) -> set[tuple[str, str]]:
    """(METHOD, /path/{param}) of every request in the collection."""
    found: set[tuple[str, str]] = set()

    def walk(items):
        for item in items:
            if "item" in item:
                walk(item["item"])
            elif "request" in item:
                request = item["request"]
                segments = [
                    "{" + s[1:] + "}" if s.startswith(":") else s for s in request["url"]["path"]
                ]
                found.add((request["method"], "/" + "/".join(segments)))

    walk(collection.get("item", []))
    return found
