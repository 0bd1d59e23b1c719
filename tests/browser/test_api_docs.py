"""A programmer new to the API opens its documentation on a phone: /api/docs/ (Swagger UI,
with the guide of docs/api-guide.md at the top) and the error codes' page every problem's
``type`` links to."""

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import assert_accessible

pytestmark = pytest.mark.django_db(transaction=True)


def _fits_the_phone(page) -> None:
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"the page scrolls sideways ({width} px)"


def test_the_api_docs_explain_tokens_errors_paging_and_show_an_example(live_server, page):
    page.goto(live_server.url + "/api/docs/")
    guide = page.locator(".information-container")
    expect(guide.get_by_role("heading", name="Getting a token")).to_be_visible(timeout=20_000)
    for heading in (
        "Errors and their codes",
        "Paging, ordering and polling",
        "Retrying safely: Idempotency-Key",
        "Versions",
        "Webhooks",
        "A worked example",
    ):
        expect(guide.get_by_role("heading", name=heading)).to_have_count(1)
    expect(guide.get_by_text("Authorization: Bearer <token>").first).to_be_visible()
    # The operations are listed under the guide, by tag.
    expect(page.locator("h3.opblock-tag").first).to_be_attached(timeout=20_000)
    _fits_the_phone(page)
    assert_accessible(page)

    # The guide's link leads to the error codes' page, a page of the site.
    link = guide.get_by_role("link", name="the error codes page")
    expect(link).to_have_attribute("href", "/api/docs/errors/")


def test_a_problem_type_link_opens_its_code_on_the_errors_page(live_server, page):
    page.goto(live_server.url + "/api/docs/errors/#idempotency_key_reused")
    expect(page).to_have_title("API errors and their codes · Clabber League")
    section = page.locator("h2#idempotency_key_reused")
    expect(section).to_have_text("idempotency_key_reused")
    expect(section).to_be_in_viewport()
    expect(page.get_by_role("heading", name="API errors and their codes", level=1)).to_be_visible()
    _fits_the_phone(page)
    assert_accessible(page)
    page.get_by_role("link", name="Back to the API documentation").click()
    expect(page).to_have_url(live_server.url + "/api/docs/")
