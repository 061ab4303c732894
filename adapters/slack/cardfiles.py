"""Where the Slack adapter keeps the card pictures it uploaded to each workspace.

A workspace's card pictures (:mod:`adapters.slack.faces`) are Slack files shared in the thread of
one message of moji's, its *shelf*. :class:`CardFileStore` remembers, per workspace, each
picture's file (by the SHA-256 of its PNG) and where the shelf is, so a restarted process (or
another one on the same database) shows the same files instead of uploading them again.
:class:`SQLCardFiles` keeps them in the ``slack_card_files`` and ``slack_card_shelves`` tables
(storage's migration 0019) and is the store's :class:`~storage.privacy.Eraser` for them: a purge
deletes a workspace's rows (they name no person, so forget-me has nothing to do);
:class:`MemoryCardFiles` keeps them in memory.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from storage.database import Database, Tx

PLATFORM = "slack"


@dataclass(frozen=True, slots=True)
class CardFile:
    """A picture uploaded to a workspace: its Slack file and when its upload was completed."""

    file_id: str
    uploaded_at: float


@dataclass(frozen=True, slots=True)
class Shelf:
    """The message of moji's in whose thread a workspace's card pictures are shared."""

    channel_id: str
    thread_ts: str


class CardFileStore(Protocol):
    """Each workspace's uploaded card pictures and its shelf."""

    async def card_files(self, team_id: str) -> dict[str, CardFile]:
        """The workspace's uploaded pictures, by picture (the SHA-256 of its PNG)."""
        ...

    async def save_card_files(self, team_id: str, files: dict[str, CardFile]) -> None:
        """Remember these uploads (a picture uploaded again replaces its file)."""
        ...

    async def drop_card_file(self, team_id: str, picture: str, file_id: str) -> None:
        """Slack no longer shows ``file_id``: forget it (unless the picture has another file since)."""
        ...

    async def card_shelf(self, team_id: str) -> Shelf | None:
        """The workspace's shelf, if it has one."""
        ...

    async def save_card_shelf(self, team_id: str, shelf: Shelf, at: float) -> None:
        """The workspace's new shelf."""
        ...

    async def drop_card_shelf(self, team_id: str) -> None:
        """The shelf's thread can no longer be shared in: the next upload makes a new one."""
        ...


@dataclass
class MemoryCardFiles:
    """A :class:`CardFileStore` in memory (tests, and runs without a database)."""

    files: dict[str, dict[str, CardFile]] = field(default_factory=dict)
    shelves: dict[str, Shelf] = field(default_factory=dict)

    async def card_files(self, team_id: str) -> dict[str, CardFile]:
        return dict(self.files.get(team_id, {}))

    async def save_card_files(self, team_id: str, files: dict[str, CardFile]) -> None:
        self.files.setdefault(team_id, {}).update(files)

    async def drop_card_file(self, team_id: str, picture: str, file_id: str) -> None:
        mine = self.files.get(team_id, {})
        if picture in mine and mine[picture].file_id == file_id:
            del mine[picture]

    async def card_shelf(self, team_id: str) -> Shelf | None:
        return self.shelves.get(team_id)

    async def save_card_shelf(self, team_id: str, shelf: Shelf, at: float) -> None:
        self.shelves[team_id] = shelf

    async def drop_card_shelf(self, team_id: str) -> None:
        self.shelves.pop(team_id, None)


@dataclass(frozen=True)
class SQLCardFiles:
    """:class:`CardFileStore` in the ``slack_card_files`` and ``slack_card_shelves`` tables, and their
    :class:`~storage.privacy.Eraser` (two on one database are equal: the store keeps one)."""

    db: Database

    async def card_files(self, team_id: str) -> dict[str, CardFile]:
        """The workspace's uploaded pictures, by picture."""
        async with self.db.read() as tx:
            rows = await tx.fetch(
                "SELECT picture, file_id, uploaded_at FROM slack_card_files WHERE team_id = ?", (team_id,)
            )
        return {str(picture): CardFile(str(file_id), float(at)) for picture, file_id, at in rows}

    async def save_card_files(self, team_id: str, files: dict[str, CardFile]) -> None:
        """Remember these uploads."""
        async with self.db.write() as tx:
            await tx.executemany(
                "INSERT INTO slack_card_files (team_id, picture, file_id, uploaded_at) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (team_id, picture) DO UPDATE SET "
                "file_id = excluded.file_id, uploaded_at = excluded.uploaded_at",
                [
                    (team_id, picture, file.file_id, file.uploaded_at)
                    for picture, file in sorted(files.items())
                ],
            )

    async def drop_card_file(self, team_id: str, picture: str, file_id: str) -> None:
        """Forget a file Slack no longer shows."""
        async with self.db.write() as tx:
            await tx.execute(
                "DELETE FROM slack_card_files WHERE team_id = ? AND picture = ? AND file_id = ?",
                (team_id, picture, file_id),
            )

    async def card_shelf(self, team_id: str) -> Shelf | None:
        """The workspace's shelf, if it has one."""
        async with self.db.read() as tx:
            rows = await tx.fetch(
                "SELECT channel_id, thread_ts FROM slack_card_shelves WHERE team_id = ?", (team_id,)
            )
        return Shelf(str(rows[0][0]), str(rows[0][1])) if rows else None

    async def save_card_shelf(self, team_id: str, shelf: Shelf, at: float) -> None:
        """The workspace's new shelf."""
        async with self.db.write() as tx:
            await tx.execute(
                "INSERT INTO slack_card_shelves (team_id, channel_id, thread_ts, created_at) "
                "VALUES (?, ?, ?, ?) ON CONFLICT (team_id) DO UPDATE SET "
                "channel_id = excluded.channel_id, thread_ts = excluded.thread_ts, "
                "created_at = excluded.created_at",
                (team_id, shelf.channel_id, shelf.thread_ts, at),
            )

    async def drop_card_shelf(self, team_id: str) -> None:
        """Forget the workspace's shelf."""
        async with self.db.write() as tx:
            await tx.execute("DELETE FROM slack_card_shelves WHERE team_id = ?", (team_id,))

    # ------------------------------------------------------------ forget-me and purge

    async def forget(self, tx: Tx, platform: str, workspace_id: str, user_id: str) -> None:
        """Nothing to forget: the rows name no person."""

    async def purge(self, tx: Tx, platform: str, workspace_id: str) -> int:
        """A Slack workspace is purged: its card files and shelf go."""
        if platform != PLATFORM:
            return 0
        files = await tx.execute("DELETE FROM slack_card_files WHERE team_id = ?", (workspace_id,))
        shelves = await tx.execute("DELETE FROM slack_card_shelves WHERE team_id = ?", (workspace_id,))
        return files + shelves
