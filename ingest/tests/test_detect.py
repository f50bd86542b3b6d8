from __future__ import annotations

import pytest
from conftest import fixture_text
from test_broken_input import SAMPLES

from benchboard_ingest import ParseError, detect_format


@pytest.mark.parametrize(("fmt", "relative"), sorted(SAMPLES.items()))
def test_each_fixture_is_detected_as_its_format(fmt: str, relative: str) -> None:
    assert detect_format(fixture_text(relative), relative) == fmt


def test_unknown_text_is_a_parse_error_naming_the_file() -> None:
    with pytest.raises(ParseError) as caught:
        detect_format("hello\nworld\n", "notes.txt")
    assert caught.value.file == "notes.txt"


def test_unknown_json_names_the_root() -> None:
    with pytest.raises(ParseError) as caught:
        detect_format('{"a": 1}', "x.json")
    assert caught.value.location == "$"
