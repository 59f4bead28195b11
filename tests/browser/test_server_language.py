"""The service's messages on the page are in the page's language: it sends Accept-Language."""

from __future__ import annotations

import pytest

pytest.importorskip("playwright.sync_api")

from .conftest import check_accessibility
from .helpers import (
    confirm,
    create_game,
    expect,
    jhyap_entry,
    next_round_is,
    open_entry,
    wait_preview,
)

pytestmark = pytest.mark.server


def test_a_bengali_page_shows_the_services_refusal_in_bengali(page, server, console):
    console.allow(r"status of 422")  # the browser logs the refused dry run itself
    create_game(page, "jhyap", ["Asha", "Bikash", "Chandra"], dealer=0, starter=1)
    open_entry(page)
    jhyap_entry(page, "Asha", [2, 20, 30])
    wait_preview(page)
    confirm(page)
    next_round_is(page, 2)
    page.select_option("#lang-select", "bn")
    expect(page.locator("html")).to_have_attribute("lang", "bn")
    page.get_by_test_id("someone-joins").click()
    page.fill("#join-name", "asha")  # already in the game: the service's dry run refuses it
    refusal = page.locator("#join-preview [lang=bn]")
    expect(refusal).to_have_text("Asha আগে থেকেই এই খেলায় আছে, তাই asha আবার যোগ দিতে পারবে না।")
    check_accessibility(page, "a refusal from the service in Bengali")
