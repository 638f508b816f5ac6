"""Declared Triton argument types (`Arg`) and the stand-in values that make Triton's JIT specialise them.

Triton's JIT specialises every non-constexpr argument at launch: a pointer (tensor) or integer divisible
by 16 gets `tt.divisibility = 16`, an integer equal to 1 becomes a constant. Without the same
specialisation loads are not pipelined and the shared memory comes out far too small (32768
instead of 98304 for a 128x128x64 fp16 matmul, 3 stages, sm_90; tests/compile/test_triton_estimate.py).
So tilefit never re-implements those rules: it turns each declared `Arg` into a value (`stand_in`) and
hands it to the JIT's own binder.

A host-side TMA descriptor (`triton.tools.tensor_descriptor.TensorDescriptor`) is typed by Triton as
`tensordesc<fp16[64, 64]>`: its element type and block shape decide the shared-memory layout, its
global shape and strides do not (they are runtime values). `Arg.parse` takes that spelling.

No triton import here: parsing and describing types needs nothing installed.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from typing import Any

from tilefit.errors import InputError

# Canonical Triton type names (as in a Triton signature: "*fp16", "i32") and Triton dtype names.
_TL_NAMES: Mapping[str, str] = {
    "fp8e4nv": "fp8e4nv", "fp8e5": "fp8e5", "fp8e4b15": "fp8e4b15", "fp8e4b8": "fp8e4b8",
    "fp8e5b16": "fp8e5b16", "fp16": "fp16", "bf16": "bf16", "fp32": "fp32", "fp64": "fp64",
    "i1": "int1", "i8": "int8", "i16": "int16", "i32": "int32", "i64": "int64",
    "u8": "uint8", "u16": "uint16", "u32": "uint32", "u64": "uint64",
}
_ALIASES: Mapping[str, str] = {
    "float16": "fp16", "half": "fp16", "bfloat16": "bf16", "float32": "fp32", "float": "fp32",
    "float64": "fp64", "double": "fp64", "bool": "i1", "u1": "i1", "int1": "i1", "int8": "i8",
    "int16": "i16", "int32": "i32", "int": "i32", "int64": "i64", "uint8": "u8", "uint16": "u16",
    "uint32": "u32", "uint64": "u64", "float8_e4m3fn": "fp8e4nv", "float8_e5m2": "fp8e5",
}
# Integer stand-ins: the JIT types a Python int as i32 below 2**31, i64 below 2**63, u64 above.
_INT_BASE: Mapping[str, int] = {"i32": 0, "i64": 2**32, "u64": 2**63}


def canonical_dtype(name: str) -> str:
    """'float16' -> 'fp16', 'int32' -> 'i32'; raises InputError for a type Triton does not know."""
    key = name.strip().lower().removeprefix("tl.").removeprefix("torch.")
    key = _ALIASES.get(key, key)
    if key not in _TL_NAMES:
        raise InputError(f"unknown Triton type {name!r}; known: {', '.join(sorted(_TL_NAMES))}")
    return key


@dataclasses.dataclass(frozen=True)
class Arg:
    """The type of one kernel argument as Triton's JIT sees it at launch.

    `divisible_by_16`: the pointer's address (or the integer) is a multiple of 16, as every tensor
    torch allocates is; `equal_to_1`: an integer argument equal to 1 (the JIT makes it a constant).
    Declared pointers are taken to span under 2 GiB (AMD buffer ops, like most tensors).
    """

    dtype: str
    pointer: bool = False
    divisible_by_16: bool = False
    equal_to_1: bool = False
    block_shape: tuple[int, ...] | None = None  # set for a TMA descriptor (tensordesc<dtype[block]>)

    def __post_init__(self) -> None:
        object.__setattr__(self, "dtype", canonical_dtype(self.dtype))
        if self.block_shape is not None:
            self._check_descriptor()
            return
        if self.equal_to_1 and (self.pointer or not self._is_int()):
            raise InputError(f"{self}: only integer arguments can be equal to 1")
        if self.divisible_by_16 and not (self.pointer or self._is_int()):
            raise InputError(f"{self}: only pointers and integers can be divisible by 16")
        if not self.pointer and self.dtype not in ("i1", "fp32", *_INT_BASE):
            raise InputError(
                f"scalar {self.dtype!r}: Triton's JIT passes Python ints as i32/i64/u64, floats as fp32 "
                "and bools as i1; declare one of those"
            )

    def _is_int(self) -> bool:
        return self.dtype in _INT_BASE

    def _check_descriptor(self) -> None:
        shape = self.block_shape or ()
        if self.pointer or self.divisible_by_16 or self.equal_to_1:
            raise InputError(f"{self}: a tensor descriptor takes no pointer or ':16'/':1' hint")
        if not 1 <= len(shape) <= 5 or any(d < 1 or d & (d - 1) for d in shape):
            raise InputError(f"tensor descriptor block shape {list(shape)}: 1 to 5 dims, each a power of 2 "
                             "(Triton's validate_block_shape)")

    @classmethod
    def parse(cls, text: str) -> Arg:
        """Parse '*fp16:16' (pointer, 16-byte aligned), '*bf16', 'i32:16', 'i32:1', 'i32', 'fp32', or a TMA
        descriptor in Triton's spelling 'tensordesc<fp16[64, 64]>'."""
        raw = text.strip()
        if not raw:
            raise InputError("empty argument type; expected e.g. '*fp16:16', 'i32:16', 'i32', 'fp32'")
        if raw.startswith("tensordesc"):
            return _parse_descriptor(raw)
        pointer = raw.startswith("*")
        body, _, hint = raw.lstrip("*").partition(":")
        if hint not in ("", "16", "1"):
            raise InputError(f"argument type {text!r}: the hint after ':' must be 16 or 1")
        return cls(
            dtype=body, pointer=pointer, divisible_by_16=hint == "16", equal_to_1=hint == "1"
        )

    def __str__(self) -> str:
        if self.block_shape is not None:
            return f"tensordesc<{self.dtype}[{', '.join(map(str, self.block_shape))}]>"
        hint = ":16" if self.divisible_by_16 else ":1" if self.equal_to_1 else ""
        return f"{'*' if self.pointer else ''}{self.dtype}{hint}"

    def stand_in(self) -> Any:
        """A value that Triton's JIT binder specialises exactly as it would a real argument of this type."""
        if self.block_shape is not None:
            return _stand_in_descriptor(self.dtype, self.block_shape)
        if self.pointer:
            return StandInTensor(_TL_NAMES[self.dtype], 0 if self.divisible_by_16 else 8)
        if self.dtype == "fp32":
            return 1.5
        if self.dtype == "i1":
            return True
        if self.equal_to_1:
            return 1
        return _INT_BASE[self.dtype] + (16 if self.divisible_by_16 else 17)


class StandInTensor:
    """A tensor-like for the JIT binder: a Triton dtype and a data pointer of chosen alignment."""

    def __init__(self, tl_dtype: str, address: int) -> None:
        self.tl_dtype = tl_dtype
        self.address = address

    @property
    def dtype(self) -> Any:
        import triton.language as tl

        return tl.core.dtype(self.tl_dtype)

    def data_ptr(self) -> int:
        return self.address

    def ptr_range(self) -> int:
        # Under 2 GiB, as for most tensors: AMD's JIT then adds tt.pointer_range = 32 (buffer ops).
        return 1 << 20


_DESCRIPTOR = re.compile(r"tensordesc<(\w+)\[([\d,\s]+)\]>$")


def _parse_descriptor(text: str) -> Arg:
    m = _DESCRIPTOR.match(text.replace(" ", ""))
    if m is None:
        raise InputError(f"tensor descriptor type {text!r}: expected Triton's spelling, e.g. "
                         "'tensordesc<fp16[64, 64]>' (element type and block shape)")
    shape = tuple(int(d) for d in m.group(2).split(",") if d)
    return Arg(dtype=m.group(1), block_shape=shape)


def _stand_in_descriptor(dtype: str, block: tuple[int, ...]) -> Any:
    """A real TensorDescriptor over a stand-in base: the JIT types it `tensordesc<dtype[block]>`."""
    from triton.tools.tensor_descriptor import TensorDescriptor

    # Global shape: at least the block and 16 elements a row, so every row stride is 16-byte aligned
    # (TensorDescriptor checks it); only the element type and block shape reach the compiled kernel.
    shape = [max(d, 16) for d in block]
    strides = [1] * len(shape)
    for i in range(len(shape) - 2, -1, -1):
        strides[i] = strides[i + 1] * shape[i + 1]
    return TensorDescriptor(StandInTensor(_TL_NAMES[dtype], 0), shape, strides, list(block))


def arg_from_value(value: Any) -> Arg | int | float | bool | None:
    """Normalise a real example argument (tensor, TensorDescriptor, int, float, bool, None, Arg, type string)
    to a picklable one.

    Tensors and TMA descriptors become an `Arg` (Triton's own mangling names the type; alignment from
    data_ptr()), so that the specialisation can be redone in a worker process without the tensor.
    """
    if isinstance(value, Arg) or value is None or isinstance(value, (bool, int, float)):
        return value
    if isinstance(value, str):
        return Arg.parse(value)
    if _is_descriptor(value):
        from triton.runtime.jit import mangle_type

        return _parse_descriptor(str(mangle_type(value)))
    if hasattr(value, "data_ptr") and hasattr(value, "dtype"):
        from triton.runtime.jit import mangle_type

        name = str(mangle_type(value)).lstrip("*").removeprefix("k")
        return Arg(dtype=name, pointer=True, divisible_by_16=value.data_ptr() % 16 == 0)
    raise InputError(
        f"cannot use an argument of type {type(value).__name__}; pass a tensor, a TensorDescriptor, int, "
        "float, bool, None, an Arg or a type string such as '*fp16:16' or 'tensordesc<fp16[64, 64]>'"
    )


def _is_descriptor(value: Any) -> bool:
    # Host-side TMA descriptors: triton.tools.tensor_descriptor.TensorDescriptor (and its Gluon twin).
    return hasattr(value, "block_shape") and hasattr(value, "base") and hasattr(value, "strides")


def parse_signature(signature: Mapping[str, Arg | str]) -> dict[str, Arg]:
    """Parse a declared signature mapping arg name -> Arg or type string."""
    out = {}
    for name, spec in signature.items():
        try:
            out[str(name)] = spec if isinstance(spec, Arg) else Arg.parse(str(spec))
        except InputError as exc:
            raise InputError(f"argument {name!r}: {exc}") from exc
    return out


def from_specialisation(
    params: Any, signature: Mapping[str, Any], constexprs: Mapping[tuple[int, ...], Any],
    attrs: Mapping[tuple[int, ...], Any],
) -> tuple[dict[str, Arg | int | float | bool | None], dict[str, Any]]:
    """Turn what the JIT passes to its compile (signature, constexprs, attrs) back into (args, constexpr config).

    The inverse of `Arg.stand_in` under the binder: re-specialising the returned args gives the same
    signature and attributes. Runtime arguments the JIT made constants (an int equal to 1, None) come back
    as those values; tuple arguments are not supported (InputError).
    """
    args: dict[str, Arg | int | float | bool | None] = {}
    config: dict[str, Any] = {}
    for i, p in enumerate(params):
        ty = signature[p.name]
        if p.is_constexpr:
            config[p.name] = constexprs.get((i,))
        elif not isinstance(ty, str) or ty.startswith("["):
            raise InputError(f"argument {p.name!r} is a tuple ({ty}); tilefit sizes flat arguments only")
        elif ty == "constexpr":
            args[p.name] = constexprs.get((i,))
        elif ty.startswith("tensordesc"):
            args[p.name] = _parse_descriptor(ty)
        else:
            aligned = ["tt.divisibility", 16] in [list(a) for a in attrs.get((i,), ())]
            pointer = ty.startswith("*")
            args[p.name] = Arg(ty.lstrip("*"), pointer=pointer,
                               divisible_by_16=aligned and (pointer or ty in _INT_BASE))
    return args, config
