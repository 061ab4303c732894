"""The catalogues: the template holds every message of the code, and every language translates
every one of them, with the same placeholders and all its plural forms."""

from __future__ import annotations

import pytest

from games.common import catalogue
from games.common.catalogue import TRANSLATED


@pytest.fixture(scope="module")
def template():  # type: ignore[no-untyped-def]
    return catalogue.read(catalogue.TEMPLATE)


def test_the_template_holds_every_message_of_the_code_and_nothing_else(template) -> None:  # type: ignore[no-untyped-def]
    extracted = {catalogue.key(m) for m in catalogue.extract() if m.id}
    kept = {catalogue.key(m) for m in template if m.id}
    assert not extracted - kept, "run `make messages`: new messages are not in the template"
    assert not kept - extracted, "run `make messages`: the template keeps messages the code no longer has"


@pytest.mark.parametrize("code", TRANSLATED)
def test_every_message_is_translated_with_the_same_placeholders(code: str, template) -> None:  # type: ignore[no-untyped-def]
    assert catalogue.problems(code, template) == []
