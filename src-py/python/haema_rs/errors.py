"""haema's errors as exceptions.

Every error haema raises is a :class:`HaemaError` whose ``kind`` names the situation with
the same spelling the other front ends use (``not_found``, ``stale``, ``user_required`` …).
Each is also the built-in exception its kind means, so code written for HAEMA keeps
catching what it caught: bad arguments are a ``ValueError``, an unknown id a
``LookupError``, a store that cannot be read an ``OSError``.
"""

from __future__ import annotations


class HaemaError(Exception):
    """An error of haema's engine; ``kind`` names it, ``str()`` says what to do."""

    kind: str = "internal"

    def __init__(self, message: str, kind: str | None = None) -> None:
        super().__init__(message)
        if kind is not None:
            self.kind = kind


class InvalidArgumentError(HaemaError, ValueError):
    """An argument is out of range or malformed; nothing was changed."""

    kind = "invalid_argument"


class ConfigError(HaemaError, ValueError):
    """A setting of the store (its ``haema.toml`` or the environment) is wrong."""

    kind = "config"


class NotFoundError(HaemaError, LookupError):
    """No memory, changeset or core version has that id (for this user)."""

    kind = "not_found"


class StateError(HaemaError):
    """The change cannot be made in the state things are in (a changeset already decided,
    a memory already replaced …)."""

    kind = "invalid_state"


class StaleError(StateError):
    """The memories a proposed change was built on changed since: re-run it."""

    kind = "stale"


class EmbedderMismatchError(HaemaError, ValueError):
    """The store's vectors were made by another embedding client or dimension."""

    kind = "embedder_mismatch"


class ProviderError(HaemaError, ConnectionError):
    """A provider the store's settings name (an HTTP LLM or embedder) failed."""

    kind = "provider"


class StoreError(HaemaError, OSError):
    """The store's files or database cannot be read or written."""

    kind = "io"


class DiskFullError(StoreError):
    """The disk is full: nothing was changed."""

    kind = "disk_full"


class MemoryIsolationError(HaemaError, PermissionError):
    """The store keeps users apart and the call named no user (Promptise's name).

    Raised for a per-user store or provider whenever a call lacks ``user_id``: nothing is
    read or written for nobody.
    """

    kind = "user_required"


UserRequiredError = MemoryIsolationError

_BY_KIND: dict[str, type[HaemaError]] = {
    "invalid_argument": InvalidArgumentError,
    "config": ConfigError,
    "unknown_value": InvalidArgumentError,
    "not_found": NotFoundError,
    "wrong_status": StateError,
    "replaced_by_rerun": StateError,
    "replaced_since": StateError,
    "invalid_state": StateError,
    "stale": StaleError,
    "core_format": InvalidArgumentError,
    "embedder_mismatch": EmbedderMismatchError,
    "provider": ProviderError,
    "model_not_downloaded": ProviderError,
    "io": StoreError,
    "database": StoreError,
    "schema_too_new": StoreError,
    "disk_full": DiskFullError,
    "user_required": MemoryIsolationError,
    "keyring": ConfigError,
}


def from_kind(kind: str, message: str) -> HaemaError:
    """The exception for an engine error of ``kind`` (used by the native module)."""
    return _BY_KIND.get(kind, HaemaError)(message, kind)
