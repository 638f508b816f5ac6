"""Declared Triton argument types, their JIT stand-ins, cache keys and the disk cache: no compiler needed."""

from __future__ import annotations

import pytest

from tilefit.errors import InputError
from tilefit.estimate.triton_args import Arg, StandInTensor, arg_from_value, parse_signature


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("*fp16:16", Arg("fp16", pointer=True, divisible_by_16=True)),
        ("*bf16", Arg("bf16", pointer=True)),
        ("i32:16", Arg("i32", divisible_by_16=True)),
        ("i32:1", Arg("i32", equal_to_1=True)),
        ("i32", Arg("i32")),
        ("fp32", Arg("fp32")),
        ("*float16:16", Arg("fp16", pointer=True, divisible_by_16=True)),
        (" *torch.bfloat16 ", Arg("bf16", pointer=True)),
        ("i64:16", Arg("i64", divisible_by_16=True)),
    ],
)
def test_parse(text: str, expected: Arg) -> None:
    assert Arg.parse(text) == expected


@pytest.mark.parametrize("text", ["*fp16:16", "*bf16", "i32:16", "i32:1", "i32", "fp32", "*fp8e4nv:16", "i1"])
def test_str_round_trips(text: str) -> None:
    assert str(Arg.parse(text)) == text


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty argument type"),
        ("*fp17", "unknown Triton type"),
        ("i32:8", "must be 16 or 1"),
        ("*fp16:1", "only integer arguments can be equal to 1"),
        ("fp32:16", "only pointers and integers"),
        ("fp16", "Python ints as i32/i64/u64"),
    ],
)
def test_bad_types_say_why(text: str, message: str) -> None:
    with pytest.raises(InputError, match=message):
        Arg.parse(text)


def test_stand_ins_carry_the_specialisation_the_jit_reads() -> None:
    # Integers: the JIT types by magnitude and specialises % 16 == 0 and == 1.
    assert Arg.parse("i32:16").stand_in() % 16 == 0
    assert Arg.parse("i32").stand_in() % 16 != 0 and Arg.parse("i32").stand_in() != 1
    assert Arg.parse("i32:1").stand_in() == 1
    big = Arg.parse("i64:16").stand_in()
    assert big >= 2**31 and big % 16 == 0
    assert 2**63 <= Arg.parse("u64").stand_in() < 2**64
    assert isinstance(Arg.parse("fp32").stand_in(), float)
    # Pointers: a tensor-like whose address is (or is not) 16-byte aligned.
    aligned, unaligned = Arg.parse("*fp16:16").stand_in(), Arg.parse("*fp16").stand_in()
    assert isinstance(aligned, StandInTensor) and aligned.data_ptr() % 16 == 0
    assert unaligned.data_ptr() % 16 != 0
    assert aligned.tl_dtype == "fp16" and Arg.parse("*i8").stand_in().tl_dtype == "int8"


def test_signature_errors_name_the_argument() -> None:
    assert parse_signature({"x": "*fp16:16", "n": Arg("i32")}) == {
        "x": Arg("fp16", pointer=True, divisible_by_16=True), "n": Arg("i32")}
    with pytest.raises(InputError, match="argument 'n'"):
        parse_signature({"n": "int33"})


def test_example_values_are_normalised() -> None:
    assert arg_from_value(7) == 7 and arg_from_value(1.5) == 1.5 and arg_from_value(None) is None
    assert arg_from_value("*bf16:16") == Arg("bf16", pointer=True, divisible_by_16=True)
    with pytest.raises(InputError, match="cannot use an argument of type object"):
        arg_from_value(object())
