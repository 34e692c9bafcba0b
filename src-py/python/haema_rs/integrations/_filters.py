"""LangGraph's ``filter`` on item values, as its stores apply it: a field equals a value
(objects compared key by key, lists item by item), or meets operators ``$eq``, ``$ne``,
``$gt``, ``$gte``, ``$lt`` and ``$lte`` (the order ones compare two numbers or two strings,
such as ISO dates; anything else does not pass)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

OPERATORS = ("$eq", "$ne", "$gt", "$gte", "$lt", "$lte")


def matches(value: Mapping[str, Any], filter: Mapping[str, Any] | None) -> bool:
    """Whether an item's value passes every condition of ``filter``."""
    return not filter or all(_compare(value.get(field), wanted) for field, wanted in filter.items())


def _compare(found: Any, wanted: Any) -> bool:
    if isinstance(wanted, Mapping):
        if any(isinstance(k, str) and k.startswith("$") for k in wanted):
            return all(_operator(found, op, operand) for op, operand in wanted.items())
        return isinstance(found, Mapping) and all(_compare(found.get(k), v) for k, v in wanted.items())
    if isinstance(wanted, (list, tuple)):
        return (
            isinstance(found, (list, tuple))
            and len(found) == len(wanted)
            and all(_compare(f, w) for f, w in zip(found, wanted))
        )
    return bool(found == wanted)


def _operator(found: Any, operator: str, operand: Any) -> bool:
    if operator == "$eq":
        return bool(found == operand)
    if operator == "$ne":
        return bool(found != operand)
    if operator not in OPERATORS:
        raise ValueError(f"unsupported filter operator {operator!r}: use one of {', '.join(OPERATORS)}")
    if not (_number(found) and _number(operand)) and not (isinstance(found, str) and isinstance(operand, str)):
        return False
    if operator == "$gt":
        return bool(found > operand)
    if operator == "$gte":
        return bool(found >= operand)
    if operator == "$lt":
        return bool(found < operand)
    return bool(found <= operand)


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)
