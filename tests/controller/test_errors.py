"""One exception family for the controller (STYLE.md principle 8, as gpiozero's exc.py)."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import controller
from controller.rules.errors import RulesError, TavlaError

BUILTINS = (ValueError, RuntimeError, OSError, KeyError, TypeError, LookupError)
#: Bases that only group the family, as gpiozero's GPIOZeroError does; nothing raises them bare.
ROOTS = (TavlaError, RulesError)


def _controller_exceptions() -> list[type[BaseException]]:
    found: dict[str, type[BaseException]] = {}
    for info in pkgutil.walk_packages(controller.__path__, "controller."):
        module = importlib.import_module(info.name)
        for _, obj in inspect.getmembers(module, inspect.isclass):
            if issubclass(obj, BaseException) and obj.__module__.startswith("controller."):
                found[f"{obj.__module__}.{obj.__qualname__}"] = obj
    return list(found.values())


def test_every_controller_error_is_a_tavla_error_and_a_builtin() -> None:
    errors = _controller_exceptions()
    assert len(errors) >= 15  # the family is found, not an empty walk
    for cls in errors:
        if cls in ROOTS:
            continue
        assert issubclass(cls, TavlaError), f"{cls.__module__}.{cls.__name__} is not a TavlaError"
        assert issubclass(cls, BUILTINS), f"{cls.__module__}.{cls.__name__} is no builtin too"


def test_the_family_is_caught_by_its_root_or_its_builtin() -> None:
    from controller.formats import FormatError, position_from_id

    for catch in (TavlaError, ValueError, FormatError):
        try:
            position_from_id("not an id")
        except catch:
            pass
        else:  # pragma: no cover - the parser must refuse
            raise AssertionError("position_from_id accepted a bad ID")
