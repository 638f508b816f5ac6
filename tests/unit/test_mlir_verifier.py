"""The verifier switch only acts on an object whose binding it knows, and workers take the parent's answer."""

from __future__ import annotations

import pytest

from tilefit.estimate import mlir_verifier


def test_an_object_that_is_not_a_nanobind_instance_has_no_address() -> None:
    assert mlir_verifier._address(object()) is None
    assert mlir_verifier._address([1, 2, 3]) is None


@pytest.mark.parametrize(("value", "expected"), [("0", False), ("1", True)])
def test_workers_take_the_parents_probe(monkeypatch: pytest.MonkeyPatch, value: str, expected: bool) -> None:
    monkeypatch.setenv(mlir_verifier.PROBED, value)
    mlir_verifier.usable.cache_clear()
    try:
        assert mlir_verifier.usable() is expected
    finally:
        mlir_verifier.usable.cache_clear()


def test_verified_does_nothing_while_the_verifier_is_on() -> None:
    class Invalid:
        def verify(self) -> bool:
            return False

    mlir_verifier.verified(Invalid())  # the per-pass verifier ran: nothing to check again
    mlir_verifier._ACTIVE.append(True)
    try:
        with pytest.raises(RuntimeError, match="MLIR verification failed"):
            mlir_verifier.verified(Invalid())
    finally:
        mlir_verifier._ACTIVE.pop()
