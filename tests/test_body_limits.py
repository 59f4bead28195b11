"""One figure for each import's body limit: the code's, in the docs and the nginx samples."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from scorekeeper.api.body import IMPORT_MAX_BYTES

ROOT = Path(__file__).resolve().parent.parent
DOCUMENTS = ["README.md", "SECURITY.md", "docs/api.md"]
MIB = 1024 * 1024
GAME_IMPORT, TABLE_IMPORT = (
    IMPORT_MAX_BYTES["api.import_game"],
    IMPORT_MAX_BYTES["api.import_table"],
)


def mib(size: int) -> str:
    return f"{size // MIB} MiB"


def test_every_document_says_the_import_limits_the_code_has():
    for name in DOCUMENTS:
        text = (ROOT / name).read_text()
        said = {int(figure) for figure in re.findall(r"(\d+) MiB", text)}
        assert said == {GAME_IMPORT // MIB, TABLE_IMPORT // MIB}, (name, said)
        for line in text.splitlines():
            if "MiB" in line and "import" in line and "table" in line:
                assert mib(TABLE_IMPORT) in line, (name, line)


def test_every_nginx_sample_lets_the_largest_import_through_and_no_more_than_that():
    for name in ("README.md", "SECURITY.md"):
        text = (ROOT / name).read_text()
        samples = re.findall(r"```nginx\n(.*?)```", text, re.DOTALL)
        assert samples, name
        for sample in samples:
            (size,) = re.findall(r"client_max_body_size (\d+)m;", sample)
            allowed = int(size) * MIB  # nginx's m is MiB
            assert TABLE_IMPORT < allowed <= TABLE_IMPORT + 2 * MIB, (name, size)


def padded(size: int) -> bytes:
    """A JSON object of exactly ``size`` bytes (not an export)."""
    head = b'{"format": "scorekeeper.table", "pad": "'
    return head + b"x" * (size - len(head) - 2) + b'"}'


@pytest.mark.parametrize(
    ("path", "limit"),
    [("/api/v1/games/import", GAME_IMPORT), ("/api/v1/tables/import", TABLE_IMPORT)],
    ids=["game", "table"],
)
def test_each_import_takes_up_to_its_figure_and_refuses_a_byte_more(client, path, limit):
    at_the_limit = client.post(path, data=padded(limit), content_type="application/json")
    assert at_the_limit.status_code == 422, at_the_limit.json  # read, then found no export

    over = client.post(path, data=padded(limit + 1), content_type="application/json")
    assert over.status_code == 413, over.json
    assert over.json["error"]["message"] == f"The request body is larger than {mib(limit)}."


def test_a_table_import_over_the_games_figure_is_read(client):
    table = client.post("/api/v1/tables", json={"name": "Crew", "players": ["Asha", "Bikash"]})
    document = client.get(f"/api/v1/tables/{table.json['id']}/export").json
    document["pad"] = "x" * (GAME_IMPORT + MIB)  # fields an importer does not know are ignored
    body = json.dumps(document).encode()
    assert GAME_IMPORT < len(body) < TABLE_IMPORT

    imported = client.post("/api/v1/tables/import", data=body, content_type="application/json")

    assert imported.status_code == 201, imported.json


def test_a_games_import_into_a_table_takes_what_a_games_import_takes(client):
    table = client.post("/api/v1/tables", json={"name": "Crew", "players": ["Asha", "Bikash"]})
    path = f"/api/v1/tables/{table.json['id']}/games/import"
    auth = {"Authorization": f"Bearer {table.json['token']}"}
    at_the_limit = client.post(
        path, data=padded(GAME_IMPORT), content_type="application/json", headers=auth
    )
    assert at_the_limit.status_code == 422, at_the_limit.json  # read, then found no export

    over = client.post(
        path, data=padded(GAME_IMPORT + 1), content_type="application/json", headers=auth
    )
    assert over.status_code == 413, over.json
    assert over.json["error"]["message"] == f"The request body is larger than {mib(GAME_IMPORT)}."
