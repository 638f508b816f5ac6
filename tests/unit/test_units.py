from __future__ import annotations

import pytest

from tilefit.units import format_bytes, parse_size


@pytest.mark.parametrize(
    ("text", "value", "exact"),
    [
        ("526336", 526336, True),
        ("0xc000", 49152, True),
        ("0x20400", 132096, True),
        ("16.00M", 16 * 2**20, False),
        ("1.7K", round(1.7 * 1024), False),
        ("31.07M", round(31.07 * 2**20), False),
        ("2G", 2 * 2**30, True),
        ("12 MiB", 12 * 2**20, True),
        ("100 bytes", 100, True),
        # IREE prints its overflowed count as it is: "uses -4 bytes of shared memory"
        ("-4", -4, True),
    ],
)
def test_parse_size(text: str, value: int, exact: bool) -> None:
    assert parse_size(text) == (value, exact)


@pytest.mark.parametrize("text", ["", "abc", "1.2.3", "M16", "--4", "4-"])
def test_parse_size_rejects(text: str) -> None:
    assert parse_size(text) is None


def test_format_bytes() -> None:
    assert format_bytes(232448) == "232448 B (227.00 KiB)"
    assert format_bytes(100) == "100 B"
    assert format_bytes(None) == "unknown"
