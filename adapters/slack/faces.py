"""Card faces on Slack: each card of a table as an image naming a file uploaded once per workspace.

Without a public address (Socket Mode, or HTTP without ``PUBLIC_URL``) Slack cannot fetch a
picture from moji, and a picture uploaded per table would cost two more Web API calls and a few
seconds of Slack's processing before a message may show it: longer than a lively race's table
lasts. But a race table is a row of cards, and a deck has few faces (104 in English). So each face
is drawn once (:mod:`adapters.pictures`, through the adapter's renderer) and uploaded once per
workspace, and a table names those files in a row of image elements (``slack_file: {"id": …}``):
a new table costs only its own call.

- A file may be shown by someone with access to it ("the user posting these blocks must have
  access to this file", the Slack file object) once Slack has processed it; one completed without
  a channel "will be private" (files.completeUploadExternal). So faces are completed into a
  channel, :data:`BATCH` at most per call, in the thread of one message of moji's per workspace
  (its *shelf*, posted in the channel of the first game that needs pictures, never in a direct
  message), and named only :data:`PROCESSING` seconds after their completion.
- Each face costs one ``files.getUploadURLExternal``, its upload and a share of a completion (both
  Tier 4), paced with the adapter's other calls: a table's missing faces first, then its game's
  deck (:attr:`games.common.protocol.GameInfo.faces`) from the moment the lobby opens.
- A face is named by the SHA-256 of its PNG (a new design is a new file; one picture in two
  languages one file) and kept in the database (:mod:`adapters.slack.cardfiles`): a restart
  uploads nothing again. The uploads themselves: :mod:`adapters.slack.face_uploads`.

A table is never held back: a card whose face is not ready is its emoji text in the row (no face
ready: the emoji line). When Slack refuses a message for a face's file (``invalid_blocks``,
"invalid slack file" pointing at the element), it goes again at once without pictures (the
delivery layer sends it again; ``PictureRefused``) and :meth:`Faces.refused` decides: a file
completed less than :data:`YOUNG` seconds ago is still being processed (named again a little
later); an older one is gone (deleted by someone, or another workspace's): it is uploaded again.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from typing import Any

from slack_sdk.errors import SlackApiError

from adapters.slack.face_uploads import FaceUploads, face_of
from bot.core.events import ChatKey
from bot.core.views import View
from games.common.protocol import CardFace

log = logging.getLogger(__name__)

#: Seconds after its completion before a file is named by a table: Slack processes uploads
#: asynchronously ("a few moments"; "this typically takes 1-2 seconds", Metabase's
#: src/metabase/channel/slack.clj).
PROCESSING = 3.0
#: A refused file completed less than this long ago is still being processed; an older one is gone.
YOUNG = 60.0
#: The most cards one table shows as pictures (three context blocks of ten elements).
MOST = 30
#: A refusal's pointer at an image element: ``/blocks/3/elements/1/slack_file``.
_POINTER = re.compile(r"/blocks/(\d+)/elements/(\d+)/slack_file")


class Faces(FaceUploads):
    """Each workspace's card faces as Slack files, uploaded once (see the module docstring), as the
    tables ask for them."""

    #: Messages Slack refused for a face (each then sent again without pictures).
    refusals = 0

    def _usable(self, chat: ChatKey) -> bool:
        return self.renderer is not None and chat.workspace_id not in self.disabled

    def files(self, chat: ChatKey, view: View) -> tuple[str | None, ...] | None:
        """The file of each card of ``view``, in order (None for a card whose picture is not ready
        yet: those are uploaded before any other); None when no card has one (the table goes as
        text)."""
        if not view.cards or view.board or len(view.cards) > MOST or not self._usable(chat):
            return None
        space = self._space(chat, view.locale)
        now = self._now()
        found: list[str | None] = []
        missing: list[CardFace] = []
        for card in view.cards:
            drawn = self._drawn.get(face_of(card))
            file = space.files.get(drawn.digest) if drawn is not None else None
            if drawn is None or file is None:
                missing.append(card)
                found.append(None)
                continue
            ready = max(file.uploaded_at + PROCESSING, space.not_before.get(drawn.digest, 0.0)) <= now
            found.append(file.file_id if ready else None)
        if missing:
            self._want(chat, missing, urgent=True)
        return tuple(found) if any(found) else None

    def expect(self, chat: ChatKey, locale: str) -> None:
        """A game opens or plays in ``chat``: upload the faces of its deck that are not there yet."""
        if not self._usable(chat):
            return
        deck = tuple(self.deck(chat))
        space = self._space(chat, locale)
        if deck and hash(deck) not in space.decks:
            space.decks.add(hash(deck))
            self._want(chat, deck, urgent=False)

    def refused(self, chat: ChatKey, exc: BaseException, blocks: Sequence[dict[str, Any]]) -> None:
        """Slack refused a message for a face's file (see the module docstring)."""
        self.refusals += 1
        space = self._space(chat, "")
        errors = exc.response.get("errors") if isinstance(exc, SlackApiError) else None
        now = self._now()
        for error in errors or []:
            match = _POINTER.search(str(error))
            if match is None:
                continue
            try:
                block, element = (int(n) for n in match.groups())
                file_id = str(blocks[block]["elements"][element]["slack_file"]["id"])
            except (IndexError, KeyError, TypeError):
                continue
            for digest, file in list(space.files.items()):
                if file.file_id != file_id:
                    continue
                if now - file.uploaded_at < YOUNG:  # not processed yet: name it again a little later
                    space.not_before[digest] = now + PROCESSING
                    log.info("slack workspace %s: a card picture is not shown yet", chat.workspace_id)
                    continue
                del space.files[digest]
                log.warning(
                    "slack workspace %s: Slack no longer shows card picture %s; uploading it again",
                    chat.workspace_id,
                    file_id,
                )
                self._spawn(self.store.drop_card_file(chat.workspace_id, digest, file_id))
                faces = [face for face, drawn in self._drawn.items() if drawn.digest == digest]
                self._want(chat, [CardFace(*face) for face in faces], urgent=True)
