"""The published clients (clients/) are the generation of the schema the service serves: the
schema file itself, the Python package (openapi-python-client), the TypeScript types
(openapi-typescript, compiled with the examples under `tsc --strict`) and the Postman collection.
A change of the API without `bin/clients` fails here. The Python client's journey against the
running service is tests/test_generated_client.py."""

import filecmp
import json
import shutil
import subprocess
from pathlib import Path

import pytest

from api.published_clients import (
    CLIENTS,
    POSTMAN,
    PYTHON_CLIENT,
    SCHEMA,
    generate_python,
    postman_requests,
    schema_text,
    without_ids,
)

TYPESCRIPT = CLIENTS / "typescript"
NODE = shutil.which("node")
NPM = shutil.which("npm")
needs_node = pytest.mark.skipif(
    NODE is None or NPM is None, reason="Node.js and npm are needed (apt-get install nodejs npm)"
)
STALE = "run bin/clients and commit clients/"


@pytest.fixture(scope="module")
def schema() -> dict:
    return json.loads(SCHEMA.read_text(encoding="utf-8"))


def test_the_committed_schema_is_the_one_the_service_serves():
    assert SCHEMA.read_text(encoding="utf-8") == schema_text(), STALE


def _differences(left: Path, right: Path) -> list[str]:
    comparison = filecmp.dircmp(left, right, ignore=["__pycache__"])
    found: list[str] = []

    def walk(c, prefix=""):
        found.extend(f"{prefix}{name}" for name in c.left_only + c.right_only + c.diff_files)
        for name, sub in c.subdirs.items():
            walk(sub, f"{prefix}{name}/")

    walk(comparison)
    return found


def test_the_python_client_is_the_generation_of_the_schema(tmp_path):
    generate_python(tmp_path / "python")
    assert _differences(PYTHON_CLIENT, tmp_path / "python") == [], STALE


def test_the_postman_collection_has_every_operation(schema):
    collection = json.loads(POSTMAN.read_text(encoding="utf-8"))
    operations = {
        (method.upper(), path)
        for path, methods in schema["paths"].items()
        for method, operation in methods.items()
        if isinstance(operation, dict) and "operationId" in operation
    }
    assert postman_requests(collection) == operations, STALE


def _npm(*args: str, timeout: int = 300) -> subprocess.CompletedProcess:
    assert NPM is not None
    return subprocess.run(  # noqa: S603 - fixed arguments
        [NPM, *args], cwd=TYPESCRIPT, capture_output=True, text=True, check=False, timeout=timeout
    )


@pytest.fixture(scope="module")
def node_modules():
    if not (TYPESCRIPT / "node_modules" / ".package-lock.json").exists():
        installed = _npm("ci", "--no-audit", "--no-fund")
        assert installed.returncode == 0, installed.stdout + installed.stderr


@needs_node
@pytest.mark.timeout(600)
def test_the_typescript_client_is_the_generation_of_the_schema_and_compiles_strict(
    node_modules, tmp_path
):
    generated = tmp_path / "schema.d.ts"
    completed = _npm(
        "exec",
        "--",
        "openapi-typescript",
        str(SCHEMA),
        "--output",
        str(generated),
        "--default-non-nullable=false",  # as package.json's "generate": required = the schema's
    )
    assert completed.returncode == 0, completed.stdout + completed.stderr
    assert generated.read_text() == (TYPESCRIPT / "src" / "schema.d.ts").read_text(), STALE

    # tsc --noEmit on src/ and examples/ (tsconfig.json: "strict": true); examples/events.ts
    # narrows events by `type` with no cast.
    compiled = _npm("run", "check")
    assert compiled.returncode == 0, compiled.stdout + compiled.stderr


WRONG_OBJECT = """
import type { components } from "%s";
type Event = components["schemas"]["Event"];
// Must NOT compile: a wallet.debit's object has no booking_reference.
export function wrong(event: Event): string {
  if (event.type === "wallet.debit") {
    return event.data.object.booking_reference;
  }
  return "";
}
"""


@needs_node
@pytest.mark.timeout(600)
def test_a_field_of_another_event_types_object_does_not_compile(node_modules, tmp_path):
    source = tmp_path / "wrong_object.ts"
    source.write_text(WRONG_OBJECT % (TYPESCRIPT / "src" / "schema").as_posix())
    compiled = _npm("exec", "--", "tsc", "--strict", "--noEmit", str(source))
    assert compiled.returncode != 0
    assert "Property 'booking_reference' does not exist" in compiled.stdout, compiled.stdout


@needs_node
@pytest.mark.timeout(600)
def test_the_postman_collection_is_the_generation_of_the_schema(node_modules, tmp_path):
    output = tmp_path / "collection.json"
    completed = subprocess.run(  # noqa: S603 - fixed arguments
        [str(NODE), "postman.cjs", str(output)],
        cwd=TYPESCRIPT,
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert completed.returncode == 0, completed.stdout + completed.stderr
    regenerated = without_ids(json.loads(output.read_text(encoding="utf-8")))
    assert regenerated == json.loads(POSTMAN.read_text(encoding="utf-8")), STALE
