"""A TypeScript client narrows an event's `data.object` by its `type` with no cast: types
generated from the schema by openapi-typescript compile `tests/typescript/narrow_events.ts`
under `tsc --strict`, and refuse `wrong_object.ts` (a booking's field read on a wallet debit).

Needs node with openapi-typescript and typescript installed: on PATH, or in the folder that
TYPESCRIPT_TOOLS names (its `node_modules/.bin`, after `npm install openapi-typescript@7
typescript@5` there); skipped otherwise."""

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from drf_spectacular.generators import SchemaGenerator

SOURCES = Path(__file__).resolve().parent / "typescript"


def tool(name: str) -> str | None:
    folder = os.environ.get("TYPESCRIPT_TOOLS")
    path = os.pathsep.join([str(Path(folder) / "node_modules" / ".bin")] if folder else []) or None
    return shutil.which(name, path=path) or shutil.which(name)


GENERATOR, COMPILER = tool("openapi-typescript"), tool("tsc")
pytestmark = pytest.mark.skipif(
    shutil.which("node") is None or GENERATOR is None or COMPILER is None,
    reason="needs node, openapi-typescript and typescript (see TYPESCRIPT_TOOLS)",
)


def run(*command: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(  # noqa: S603 - the tools found above, fixed arguments
        command, cwd=cwd, capture_output=True, text=True, check=False, timeout=300
    )


@pytest.fixture(scope="module")
def generated(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("typescript")
    schema = SchemaGenerator().get_schema(request=None, public=True)
    (folder / "schema.json").write_text(json.dumps(schema, default=str))
    done = run(GENERATOR, "schema.json", "-o", "api.d.ts", cwd=folder)
    assert done.returncode == 0, done.stdout + done.stderr
    for source in SOURCES.glob("*.ts"):
        shutil.copy(source, folder)
    return folder


def test_events_narrow_by_type_under_strict(generated):
    done = run(COMPILER, "--strict", "--noEmit", "narrow_events.ts", cwd=generated)
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_field_of_another_types_object_does_not_compile(generated):
    done = run(COMPILER, "--strict", "--noEmit", "wrong_object.ts", cwd=generated)
    assert done.returncode != 0
    assert "Property 'booking_reference' does not exist" in done.stdout
