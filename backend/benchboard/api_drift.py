"""Fail when the committed OpenAPI schema or the generated TypeScript drifted.

The front end's API types are generated (scripts/gen-api.mjs, npm run gen:api) from
frontend/openapi.json, and its vocabularies (units, directions…) by `benchboard
vocabulary`; all must match what the service publishes now. `make openapi` regenerates
them.
"""

import subprocess
import sys
import tempfile
from pathlib import Path

from benchboard.config import REPO_ROOT, Settings
from benchboard.frontend_vocabulary import typescript_vocabulary
from benchboard.main import openapi_document

FRONTEND = REPO_ROOT / "frontend"


def generated_types(schema_file: Path) -> str:
    with tempfile.TemporaryDirectory() as folder:
        output = Path(folder) / "schema.d.ts"
        subprocess.run(
            ["node", "scripts/gen-api.mjs", str(schema_file), str(output)],
            cwd=FRONTEND,
            check=True,
            capture_output=True,
        )
        return output.read_text()


def main() -> int:
    committed_schema = FRONTEND / "openapi.json"
    if committed_schema.read_text() != openapi_document(Settings()):
        print("frontend/openapi.json differs from the service's schema: run `make openapi`")
        return 1
    if (FRONTEND / "src/api/schema.d.ts").read_text() != generated_types(committed_schema):
        print("frontend/src/api/schema.d.ts is not generated from openapi.json: `make openapi`")
        return 1
    if (FRONTEND / "src/api/vocabulary.ts").read_text() != typescript_vocabulary():
        print(
            "frontend/src/api/vocabulary.ts differs from the service's vocabularies: `make openapi`"
        )
        return 1
    print("API schema, generated types and vocabularies are current")
    return 0


if __name__ == "__main__":
    sys.exit(main())
