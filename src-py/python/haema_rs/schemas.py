"""The answers an :class:`~haema_rs.LLMClient` gives, with HAEMA's names and fields."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field, model_validator


class PreMemorySplitResponse(BaseModel):
    """A text split into self-contained facts."""

    contents: list[str] = Field(description="Self-contained memory items, one fact each.")


class MemoryReconstructionResponse(BaseModel):
    """The memories that replace the related ones, with the new contents folded in."""

    memories: list[str] = Field(
        description="Every memory that should exist from now on in place of the related memories."
    )
    coverage: Literal["complete", "incomplete"] = Field(
        description="complete only if nothing of the new contents or still-true related facts is missing."
    )
    core_relevant: bool | None = Field(
        default=None,
        description=(
            "haema's addition, optional: false when no memory belongs in the core profile, "
            "which saves the core-update call; true or missing runs it."
        ),
    )


class CoreUpdateResponse(BaseModel):
    """Whether core.md changes, and the whole new file when it does."""

    should_update: bool = Field(description="true only if the new core is meaningfully better.")
    core_markdown: str | None = Field(
        default=None,
        description="The whole new core.md (# SOUL, # TOOLS, # RULE, # USER) when should_update is true.",
    )

    @model_validator(mode="after")
    def _markdown_when_updating(self) -> CoreUpdateResponse:
        if self.should_update and not (self.core_markdown and self.core_markdown.strip()):
            raise ValueError("core_markdown is required when should_update is true")
        return self
