"""Which published API descriptions the fakes judge by, and where the copies are found.

Each :class:`Pin` names a file of a platform's own specification repository at one commit, with
the SHA-256 of its JSON text, so the copy the tests read is exactly that one. The copies are not
in this repository (tests/specs/README.md says why and how to lay them): they are looked for in
the folder ``MOJI_API_SPECS`` names, else in ``shared/specs/`` beside this checkout or beside any
folder above it, gzipped (``<name>.json.gz``) or not.
"""

from __future__ import annotations

import functools
import gzip
import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: The environment variable naming a folder that holds the copies (it wins over shared/specs/).
FOLDER_VARIABLE = "MOJI_API_SPECS"
REPO_ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class Pin:
    """One specification file: where it comes from and what it must hash to."""

    #: the copy's file name, without ``.json`` / ``.json.gz``
    name: str
    repository: str
    path: str
    commit: str
    #: the commit's date (the file's last change: ``changed``)
    date: str
    #: the last commit that changed the file itself
    changed: str
    #: SHA-256 of the file's text as the repository holds it (uncompressed)
    sha256: str

    @property
    def source(self) -> str:
        """``owner/name@commit:path``, the way the README cites it."""
        return f"{self.repository}@{self.commit}:{self.path}"


DISCORD = Pin(
    name="discord-openapi",
    repository="discord/discord-api-spec",
    path="specs/openapi.json",
    commit="74fda0fad044407ea280043a03ffc9bc64c4e49e",
    date="2026-07-18",
    changed="74fda0fad044407ea280043a03ffc9bc64c4e49e",
    sha256="8c1d0707ccdf8e380a86dfba04058820a66435c1b69d5ed82e04dd8c0520dd73",
)
#: The repository's last commit; the spec itself last changed in October 2020 (Slack stopped
#: publishing it then), which is why :mod:`tests.specs.slack` adds what came later.
SLACK = Pin(
    name="slack-web-openapi-v2",
    repository="slackapi/slack-api-specs",
    path="web-api/slack_web_openapi_v2_without_examples.json",
    commit="bc08db49625630e3585bf2f1322128ea04f2a7f3",
    date="2020-10-06",
    changed="dfea73e06d146c368d7f94b52ac90796dc4e27e1",
    sha256="8b92da26a3c5b11d20042a9f36d81f1fa6fc9382c5ddc471babb68b91936bc3a",
)
PINS = (DISCORD, SLACK)


class SpecMismatch(RuntimeError):
    """A copy was found but is not the pinned file."""


def folders() -> list[Path]:
    """Where copies are looked for, in order."""
    found: list[Path] = []
    named = os.environ.get(FOLDER_VARIABLE)
    if named:
        found.append(Path(named))
    found += [above / "shared" / "specs" for above in (REPO_ROOT, *REPO_ROOT.parents)]
    return found


def locate(pin: Pin) -> Path | None:
    """The first copy of ``pin`` found, or None."""
    for folder in folders():
        for candidate in (folder / f"{pin.name}.json.gz", folder / f"{pin.name}.json"):
            if candidate.is_file():
                return candidate
    return None


@functools.cache
def load(pin: Pin) -> dict[str, Any] | None:
    """The pinned document (parsed once per process), None when no copy is found.

    Raises :class:`SpecMismatch` when the copy found is another version than the pinned one.
    """
    where = locate(pin)
    if where is None:
        return None
    raw = where.read_bytes()
    if where.suffix == ".gz":
        raw = gzip.decompress(raw)
    digest = hashlib.sha256(raw).hexdigest()
    if digest != pin.sha256:
        raise SpecMismatch(f"{where} is not {pin.source} (sha256 {digest}, pinned {pin.sha256})")
    document: dict[str, Any] = json.loads(raw)
    return document
