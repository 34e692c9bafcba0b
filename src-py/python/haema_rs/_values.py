"""The arguments ``Memory`` hands the engine: texts checked as Unicode, values as JSON text
(numpy's numbers included), attributes and filters without their unset fields."""

from __future__ import annotations

import json
from collections.abc import Iterable
from datetime import datetime
from typing import Any

Time = datetime | int | float


def _text(text: str) -> str:
    """``text``, which must be valid Unicode (a lone surrogate cannot be stored)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as error:
        raise ValueError(
            f"the text holds an unpaired surrogate at character {error.start}: it is not valid Unicode"
        ) from None
    return text


def _contents(contents: str | Iterable[str]) -> str | list[str]:
    """HAEMA's normalisation of ``add``'s argument: a text, or an iterable of texts."""
    if isinstance(contents, str):
        return _text(contents)
    items: list[str] = []
    for item in contents:
        if not isinstance(item, str):
            raise TypeError("contents must be str or list[str]")
        items.append(_text(item))
    return items


def _json_value(value: Any) -> Any:
    """What ``json`` cannot write itself: numpy's numbers and arrays."""
    if hasattr(value, "item") and callable(value.item) and getattr(value, "ndim", None) == 0:
        return value.item()
    if hasattr(value, "tolist") and callable(value.tolist):
        return value.tolist()
    raise TypeError(
        f"a value of type {type(value).__name__} cannot be stored: use str, int, float, bool, None, list or dict"
    )


def _json(value: Any) -> str:
    """``value`` as JSON text, numpy's values included; NaN and infinities refused."""
    try:
        return json.dumps(value, default=_json_value, allow_nan=False)
    except ValueError:
        raise ValueError("a number is NaN or infinite: give a finite number") from None


def _ms(value: Time | None) -> int | None:
    if value is None:
        return None
    if isinstance(value, datetime):
        return int(value.timestamp() * 1000)
    return int(value)


def _drop_none(**values: Any) -> dict[str, Any]:
    return {k: v for k, v in values.items() if v is not None and v != {}}


def _filter_json(
    memory_type: str | None = None,
    min_importance: float | None = None,
    source: str | None = None,
    agent_id: str | None = None,
    session_id: str | None = None,
    user_id: str | None = None,
    metadata: dict[str, Any] | None = None,
    since: Time | None = None,
    until: Time | None = None,
) -> str | None:
    values = _drop_none(
        memory_type=memory_type,
        min_importance=min_importance,
        source=source,
        agent_id=agent_id,
        session_id=session_id,
        user_id=user_id,
        metadata=metadata,
        since_ms=_ms(since),
        until_ms=_ms(until),
    )
    return _json(values) if values else None
