"""What a column of moji's database can hold, as the privacy code classifies it.

Kinds:

- :data:`USER_ID`: a platform user id (``U123``), or a seat id made of one (``slack:U123``);
- :data:`NAME`: a person's display name;
- :data:`TEXT`: free text or JSON that may quote a person (their id, name, or what they typed);
- :data:`NONE`: holds no person's id or name (ids of workspaces, channels, messages, games and
  moji's own processes are not personal data here).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Kind = Literal["none", "user_id", "name", "text"]
NONE: Kind = "none"
USER_ID: Kind = "user_id"
NAME: Kind = "name"
TEXT: Kind = "text"
PERSONAL: frozenset[Kind] = frozenset({USER_ID, NAME, TEXT})

#: Tables of the database engine or of the migration machinery, not of moji's data.
INTERNAL_TABLES = frozenset({"sqlite_sequence"})


@dataclass(frozen=True, slots=True)
class Column:
    """What one column holds; for a personal one, how ``forget-me`` and ``purge`` remove it."""

    kind: Kind
    what: str

    @property
    def personal(self) -> bool:
        """Whether the column can hold a person's id, name or words."""
        return self.kind in PERSONAL


def none(what: str) -> Column:
    """A column that holds no person's id or name."""
    return Column(NONE, what)
