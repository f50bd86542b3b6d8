from __future__ import annotations

import pytest
from conftest import fixture_text, interop_text, needs_interop
from test_broken_input import INTEROP_SAMPLES, SAMPLES

from benchboard_ingest import ParseError, detect_format


@pytest.mark.parametrize(("fmt", "relative"), sorted(SAMPLES.items()))
def test_each_fixture_is_detected_as_its_format(fmt: str, relative: str) -> None:
    assert detect_format(fixture_text(relative), relative) == fmt


@needs_interop
@pytest.mark.parametrize(("fmt", "relative"), sorted(INTEROP_SAMPLES.items()))
def test_each_peer_file_is_detected_as_its_format(fmt: str, relative: str) -> None:
    assert detect_format(interop_text(relative), relative) == fmt


@needs_interop
def test_a_gab_history_is_pointed_at_import() -> None:
    relative = "gab/sigo_go_data.js"
    with pytest.raises(ParseError) as caught:
        detect_format(interop_text(relative), relative)
    assert "benchboard-ingest import gab" in caught.value.expected


def test_unknown_text_is_a_parse_error_naming_the_file() -> None:
    with pytest.raises(ParseError) as caught:
        detect_format("hello\nworld\n", "notes.txt")
    assert caught.value.file == "notes.txt"


def test_unknown_json_names_the_root() -> None:
    with pytest.raises(ParseError) as caught:
        detect_format('{"a": 1}', "x.json")
    assert caught.value.location == "$"
