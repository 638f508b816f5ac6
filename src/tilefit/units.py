"""Byte sizes as compilers print them, and back."""

from __future__ import annotations

import re

# XLA's HumanReadableNumBytes (xla/tsl/util) prints binary units with one letter:
# "16.00M" is 16 MiB, "1.7K" is 1.7 KiB. ptxas prints hex ("0xc000").
_SIZE = re.compile(
    r"^\s*(?P<num>0x[0-9a-f]+|-?\d+(?:\.\d+)?)\s*(?P<unit>[kmgt]i?b?|b|bytes?)?\s*$", re.IGNORECASE
)
_SCALE = {"": 1, "b": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}
# Decimal units, where a message is known to print them: libtpu's "Estimated 150.99MB exceeds 134.22MB vmem
# capacity" (134.22 MB is 128 MiB).
_SI = {"": 1, "b": 1, "k": 10**3, "m": 10**6, "g": 10**9, "t": 10**12}


def parse_size(text: str, *, si: bool = False) -> tuple[int, bool] | None:
    """Parse '526336', '0xc000', '31.07M', '1.7K' into (bytes, exact); None if not a size.

    Units are binary (K = 1024) unless `si`, where they are decimal (K = 1000).
    """
    m = _SIZE.match(text)
    if not m:
        return None
    num, unit = m.group("num"), (m.group("unit") or "").lower()
    unit = unit.rstrip("s").removesuffix("byte").rstrip("b").rstrip("i")
    scale = (_SI if si else _SCALE).get(unit[:1], 1)
    if num.lower().startswith("0x"):
        return int(num, 16) * scale, True
    if "." in num:
        value = float(num) * scale
        return round(value), scale == 1 and value.is_integer()
    return int(num) * scale, True


def format_bytes(n: int | float | None) -> str:
    """526336 -> '526336 B (514.0 KiB)'."""
    if n is None:
        return "unknown"
    n = int(n)
    if n < 1024:
        return f"{n} B"
    for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= scale:
            return f"{n} B ({n / scale:.2f} {unit})"
    return f"{n} B"


def format_short(n: int | float | None) -> str:
    """526336 -> '514.0 KiB'."""
    if n is None:
        return "unknown"
    n = float(n)
    for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= scale:
            return f"{n / scale:.2f} {unit}"
    return f"{int(n)} B"
