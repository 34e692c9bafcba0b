"""The clients a program brings, as HAEMA defines them.

Subclass these (or write any class with the same methods). haema calls them from its own
threads and never holds Python's GIL while it works. The calls of one ``add`` come one at
a time; calls made for adds or searches running at once (from several threads, or
overlapping ``AsyncMemory`` calls) may overlap, so a client shared that way must be
thread-safe. An ``async def`` method works too: with :class:`haema_rs.AsyncMemory` it runs
on the caller's event loop; with the synchronous ``Memory``, on a new loop for each call.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any, TypeVar

import numpy as np
from numpy.typing import NDArray
from pydantic import BaseModel

ModelT = TypeVar("ModelT", bound=BaseModel)


class EmbeddingClient(ABC):
    """Turns texts into vectors of ``output_dimensionality`` float32 numbers.

    Return a 2-D array of shape ``(len(texts), output_dimensionality)``; anything else is a
    ``ValueError`` raised by ``add`` or ``search``. Give the class a ``model_id`` attribute
    (``"gemini-embedding-001"``) to name the model the store's vectors come from; without
    one the class's name is recorded.
    """

    @abstractmethod
    def embed_query(self, texts: Sequence[str], output_dimensionality: int) -> NDArray[np.float32]:
        """Vectors of texts used as search queries."""

    @abstractmethod
    def embed_document(self, texts: Sequence[str], output_dimensionality: int) -> NDArray[np.float32]:
        """Vectors of texts stored as memories."""


class LLMClient(ABC):
    """A language model that answers with a JSON object.

    ``response_model`` is one of :mod:`haema_rs.schemas`' Pydantic classes; return a dict
    that ``response_model.model_validate`` accepts (``model_json_schema()`` gives the
    schema to ask for). Raising ``ValueError``, ``TypeError``, ``ConnectionError``,
    ``TimeoutError`` or ``OSError`` (or returning something that does not validate) counts
    as a failed attempt: haema tries three times, then falls back without losing anything.
    Any other exception stops the ``add`` and reaches its caller unchanged.
    """

    @abstractmethod
    def generate_structured(
        self,
        system_prompt: str,
        user_prompt: str,
        response_model: type[ModelT],
    ) -> dict[str, Any]:
        """The model's answer to the prompts, as a dict of ``response_model``'s fields."""
