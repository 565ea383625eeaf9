"""vision.errors: one exception family for the whole package (STYLE.md 8, issue 14 item 8)."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import vision
from vision import errors


def _vision_modules() -> list[str]:
    return [m.name for m in pkgutil.walk_packages(vision.__path__, "vision.")]


def test_every_exception_vision_defines_is_a_vision_error() -> None:
    found = []
    for name in _vision_modules():
        for _, obj in inspect.getmembers(importlib.import_module(name), inspect.isclass):
            if issubclass(obj, BaseException) and obj.__module__.startswith("vision"):
                found.append(obj)
                assert issubclass(obj, errors.VisionError), f"{obj.__module__}.{obj.__qualname__}"
    assert len(set(found)) == len(errors.__all__)


def test_each_error_is_also_the_builtin_it_resembles() -> None:
    builtins = {ValueError, OSError, FileNotFoundError}
    for name in errors.__all__:
        cls = getattr(errors, name)
        assert cls is errors.VisionError or builtins & set(cls.__mro__), name
