"""yamlio keeps a JSON copy of each parsed YAML file, keyed by the file's text (start-up of `tilefit explain`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tilefit.errors import KnowledgeBaseError
from tilefit.yamlio import load_yaml


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("TILEFIT_USE_CACHE", raising=False)
    return tmp_path / "cache" / "tilefit" / "yaml"


def test_the_copy_is_written_then_read_instead_of_parsing(tmp_path: Path, cache: Path) -> None:
    src = tmp_path / "a.yaml"
    src.write_text("id: a\nlimits: [1, 2]\n", encoding="utf-8")
    assert load_yaml(src) == {"id": "a", "limits": [1, 2]}
    (copy,) = cache.iterdir()
    copy.write_text(json.dumps({"id": "from the copy"}), encoding="utf-8")
    assert load_yaml(src) == {"id": "from the copy"}


def test_an_edited_file_is_parsed_again(tmp_path: Path, cache: Path) -> None:
    src = tmp_path / "a.yaml"
    src.write_text("n: 1\n", encoding="utf-8")
    assert load_yaml(src) == {"n": 1}
    src.write_text("n: 2\n", encoding="utf-8")
    assert load_yaml(src) == {"n": 2}
    assert len(list(cache.iterdir())) == 2


def test_content_json_cannot_hold_is_never_copied(tmp_path: Path, cache: Path) -> None:
    src = tmp_path / "a.yaml"
    src.write_text("date: 2026-01-02\n1: one\n", encoding="utf-8")
    first = load_yaml(src)
    assert load_yaml(src) == first and str(first["date"]) == "2026-01-02" and first[1] == "one"
    assert not cache.exists() or not list(cache.iterdir())


def test_copies_can_be_turned_off(tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TILEFIT_USE_CACHE", "0")
    src = tmp_path / "a.yaml"
    src.write_text("n: 1\n", encoding="utf-8")
    assert load_yaml(src) == {"n": 1}
    assert not cache.exists()


def test_an_unwritable_cache_folder_only_skips_the_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder", encoding="utf-8")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    src = tmp_path / "a.yaml"
    src.write_text("n: 1\n", encoding="utf-8")
    assert load_yaml(src) == {"n": 1}


def test_bad_yaml_and_missing_files_name_the_file(tmp_path: Path, cache: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("a: [1\n", encoding="utf-8")
    with pytest.raises(KnowledgeBaseError, match=r"bad\.yaml"):
        load_yaml(bad)
    with pytest.raises(KnowledgeBaseError, match=r"missing\.yaml"):
        load_yaml(tmp_path / "missing.yaml")
