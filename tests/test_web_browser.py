"""The playground page driven in headless Chromium (Debian's chromium and
chromium-driver, through Selenium, never downloading a browser or driver).

Skipped where no browser is installed; .ci/run installs one. Set
ASLKB_CHROMIUM / ASLKB_CHROMEDRIVER to use other binaries, and
ASLKB_SCREENSHOTS=DIR to save the page's pictures there (docs/img).
"""
from __future__ import annotations

import base64
import http.server
import os
import subprocess
import sys
import tempfile
import threading
import time
from contextlib import contextmanager
from functools import partial
from pathlib import Path

import pytest

from web_helpers import call, running

CHROMIUM = os.environ.get("ASLKB_CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("ASLKB_CHROMEDRIVER", "/usr/bin/chromedriver")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", "--window-size=1400,1000"]
ROOT = Path(__file__).resolve().parent.parent
FIRST_NIGHT = (ROOT / "examples" / "first-night.sit").read_text(encoding="utf-8")
WAIT = 60  # seconds for the page to answer on a busy machine

webdriver = pytest.importorskip("selenium.webdriver")
if not (os.access(CHROMIUM, os.X_OK) and os.access(CHROMEDRIVER, os.X_OK)):
    pytest.skip(f"no browser: {CHROMIUM} and {CHROMEDRIVER} are needed (apt-get install chromium chromium-driver)",
                allow_module_level=True)

from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402


def share(text: str) -> str:
    return "#s=" + base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


@pytest.fixture(scope="module")
def base():
    with running() as url:
        yield url


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in FLAGS + [f"--user-data-dir={tmp_path_factory.mktemp('chromium')}"]:
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})  # the console, for the docs site's test
    driver = webdriver.Chrome(options=options, service=Service(executable_path=CHROMEDRIVER))
    yield driver
    driver.quit()


def open_page(browser, base: str, text: str = FIRST_NIGHT) -> None:
    browser.get("about:blank")  # a fresh page, not a change of the hash in the same one
    browser.get(base + "/" + share(text))
    answer(browser, "base_nvr")


def answer(browser, query: str, within: str = "#answers"):
    selector = f'{within} .answer[data-query="{query}"]'
    WebDriverWait(browser, WAIT).until(lambda d: d.find_elements(By.CSS_SELECTOR, selector))
    return browser.find_element(By.CSS_SELECTOR, selector)


def rules(card) -> list[str]:
    return [chip.text for chip in card.find_elements(By.CSS_SELECTOR, ".rules .rule")]


def editor_line(browser, number: int):
    return browser.find_elements(By.CSS_SELECTOR, "#editor .cm-line")[number - 1]


def screenshot(browser, name: str) -> None:
    """With ASLKB_SCREENSHOTS=DIR, the page as a PNG in DIR (written whole, then renamed)."""
    folder = os.environ.get("ASLKB_SCREENSHOTS")
    if not folder:
        return
    os.makedirs(folder, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=folder, suffix=".png.tmp")
    os.close(handle)
    with open(temporary, "wb") as out:
        out.write(browser.get_screenshot_as_png())
    os.replace(temporary, os.path.join(folder, name))


def test_the_share_link_of_first_night_opens_and_answers(browser, base):
    open_page(browser, base)
    base_nvr = answer(browser, "base_nvr")
    assert base_nvr.find_element(By.CSS_SELECTOR, ".value").text == "4"
    assert "E1.11" in rules(base_nvr)
    san = answer(browser, "san russian")
    assert san.find_element(By.CSS_SELECTOR, ".value").text == "6" and "E1.76" in rules(san)
    assert "4 passed, 0 failed" in browser.find_element(By.ID, "status").text
    screenshot(browser, "playground.png")


def test_a_mistake_is_underlined_at_its_line_and_the_link_follows_the_text(browser, base):
    open_page(browser, base)
    assert editor_line(browser, 10).text == "hex 3T9 grain"
    editor_line(browser, 10).click()
    editor_line(browser, 10).send_keys(Keys.END, " bogus")
    WebDriverWait(browser, WAIT).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".cm-lintRange-error"))
    underlined = browser.find_element(By.CSS_SELECTOR, ".cm-lintRange-error")
    assert underlined.text == "bogus"
    lines = browser.find_elements(By.CSS_SELECTOR, "#editor .cm-line")
    assert [i + 1 for i, line in enumerate(lines) if line.find_elements(By.CSS_SELECTOR, ".cm-lintRange-error")] == [10]
    assert "line 10, column 15: unknown hex attribute 'bogus'" in browser.find_element(By.ID, "status").text
    mistaken = FIRST_NIGHT.replace("hex 3T9 grain\n", "hex 3T9 grain bogus\n")
    WebDriverWait(browser, WAIT).until(lambda d: d.execute_script("return location.hash") == share(mistaken))
    screenshot(browser, "error.png")
    editor_line(browser, 10).send_keys(Keys.BACKSPACE * len(" bogus"))  # corrected: the mark goes
    WebDriverWait(browser, WAIT).until(lambda d: not d.find_elements(By.CSS_SELECTOR, ".cm-lintRange-error"))
    WebDriverWait(browser, WAIT).until(lambda d: d.execute_script("return location.hash") == share(FIRST_NIGHT))


def test_clicking_an_answer_shows_its_explanation(browser, base):
    open_page(browser, base)
    answer(browser, "drm A1 night_lv").click()
    selector = "#explanation svg.explanation-picture"
    WebDriverWait(browser, WAIT).until(lambda d: d.find_elements(By.CSS_SELECTOR, selector))
    browser.find_element(By.CSS_SELECTOR, "#explanation details.picture summary").click()  # under the words
    WebDriverWait(browser, WAIT).until(lambda d: d.find_elements(By.CSS_SELECTOR, selector))
    picture = browser.find_element(By.CSS_SELECTOR, selector)
    labels = [node.text for node in picture.find_elements(By.CSS_SELECTOR, "g.node text.id")]
    assert labels[0] == "drm A1 night_lv = 1"
    assert "E1.7" in labels and "E1.7 EXC" in labels and "line 17" in labels  # the rule, its exceptions, the attack
    assert browser.find_element(By.CSS_SELECTOR, "#explanation h2").text == "Why: drm A1 night_lv"
    browser.execute_script("arguments[0].scrollIntoView()", browser.find_element(By.ID, "explanation"))
    screenshot(browser, "explanation.png")


def test_removing_the_roll_shows_the_odds_chart(browser, base):
    open_page(browser, base)
    line = editor_line(browser, 7)
    assert line.text.startswith("roll nvr_table")
    line.click()
    line.send_keys(Keys.CONTROL, Keys.SHIFT, "k", Keys.NULL)  # CodeMirror's delete-line key
    WebDriverWait(browser, WAIT).until(
        lambda d: d.find_elements(By.CSS_SELECTOR, '.answer[data-query="base_nvr"] .odds-chart'))
    chart = answer(browser, "base_nvr").find_element(By.CSS_SELECTOR, ".odds-chart")
    assert len(chart.find_elements(By.CSS_SELECTOR, "rect.bar")) == 6  # Base NVR 1 to 5, and undecided
    assert "4 2/9" in chart.get_attribute("aria-label") and "undecided 11/36" in chart.get_attribute("aria-label")
    screenshot(browser, "odds.png")


def test_switching_to_sl_shows_the_difference(browser, base):
    open_page(browser, base)
    Select(browser.find_element(By.ID, "edition")).select_by_value("sl4")
    WebDriverWait(browser, WAIT).until(lambda d: "edition sl4" in d.find_element(By.ID, "status").text)
    assert answer(browser, "base_nvr").find_element(By.CSS_SELECTOR, ".value").text != "4"
    browser.find_element(By.ID, "compare").click()
    for edition in ("asl", "sl4"):
        card = answer(browser, "base_nvr", f".edition-{edition}")
        assert "differs" in card.get_attribute("class").split()
        same = answer(browser, "within_nvr G1 R1", f".edition-{edition}")
        assert "differs" not in same.get_attribute("class").split()
    asl = answer(browser, "base_nvr", ".edition-asl").find_element(By.CSS_SELECTOR, ".value").text
    sl4 = answer(browser, "base_nvr", ".edition-sl4").find_element(By.CSS_SELECTOR, ".value").text
    assert asl == "4" and sl4 != asl
    assert "queries differ between ASL and SL 4th edition" in browser.find_element(By.ID, "status").text
    screenshot(browser, "compare.png")


def test_an_interpretation_switch_changes_the_answer(browser, base):
    open_page(browser, base, FIRST_NIGHT.replace("roll nvr_table colored 4 white 2", ""))
    answer(browser, "base_nvr").find_element(By.CSS_SELECTOR, ".odds-chart")
    switch = browser.find_element(By.CSS_SELECTOR, '#switches input[name="nvr_row5_as_row6"]')
    assert not switch.is_selected()
    switch.click()
    WebDriverWait(browser, WAIT).until(lambda d: "undecided" not in answer(d, "base_nvr").find_element(
        By.CSS_SELECTOR, ".odds-chart").get_attribute("aria-label"))
    assert browser.find_element(By.CSS_SELECTOR, '#switches input[name="nvr_row5_as_row6"]').is_selected()


def test_a_share_link_carries_any_text(browser, base):
    text = "# Nuit noire à Stalingrad — « première » nuit\nscenario night nvr 2\nquery base_nvr\n"
    open_page(browser, base, text)
    assert editor_line(browser, 1).text == text.splitlines()[0]
    assert answer(browser, "base_nvr").find_element(By.CSS_SELECTOR, ".value").text == "2"
    assert browser.execute_script("return location.hash") == share(text)


def test_the_gallery_opens_a_divergence_witness(browser, base):
    witness = sorted((ROOT / "examples" / "divergences").glob("*.sit"))[0]
    text = witness.read_text(encoding="utf-8")
    first_query = next(line for line in text.splitlines() if line.startswith("query ")).removeprefix("query ")
    open_page(browser, base)
    browser.find_element(By.ID, "open-gallery").click()
    WebDriverWait(browser, WAIT).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#gallery .example"))
    screenshot(browser, "gallery.png")
    card = next(card for card in browser.find_elements(By.CSS_SELECTOR, "#gallery .example")
                if card.find_element(By.TAG_NAME, "strong").get_attribute("textContent") == witness.name)
    card.click()
    answer(browser, first_query)
    assert editor_line(browser, 1).text == text.splitlines()[0]


# ---- issue 36: the playground, round two ------------------------------------

PLATOON = (ROOT / "examples" / "platoon-night.sit").read_text(encoding="utf-8")
NO_ROLL = FIRST_NIGHT.replace("roll nvr_table colored 4 white 2", "")


def status_text(browser) -> str:
    return browser.find_element(By.ID, "status").text


def explanation_summary(browser) -> str:
    """The first line of the open explanation, read in the page (the panel is redrawn as answers come)."""
    WebDriverWait(browser, WAIT).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#explanation .summary"))
    return browser.execute_script("return document.querySelector('#explanation .summary').textContent")


def value_of(browser, query: str) -> str | None:
    """The value an answer card shows, read in the page (cards are redrawn after each answer)."""
    return browser.execute_script("const card = [...document.querySelectorAll('#answers .answer')]"
                                  ".find((c) => c.dataset.query === arguments[0]);"
                                  "return card ? card.querySelector('.value').textContent : null", query)


def gallery_card(browser, name: str):
    browser.find_element(By.ID, "open-gallery").click()
    WebDriverWait(browser, WAIT).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#gallery .example"))
    return next(card for card in browser.find_elements(By.CSS_SELECTOR, "#gallery .example")
                if card.find_element(By.TAG_NAME, "strong").get_attribute("textContent") == name)


def test_the_why_panel_follows_the_answers_after_an_example_change(browser, base):
    open_page(browser, base)
    answer(browser, "base_nvr").click()
    assert explanation_summary(browser).startswith("base_nvr = 4")
    gallery_card(browser, "platoon-night.sit").click()
    WebDriverWait(browser, WAIT).until(lambda d: value_of(d, "base_nvr") == "2")
    WebDriverWait(browser, WAIT).until(lambda d: explanation_summary(d).startswith("base_nvr = 2"))
    Select(browser.find_element(By.ID, "edition")).select_by_value("sl4")  # an edition change too
    WebDriverWait(browser, WAIT).until(lambda d: "edition sl4" in status_text(d))
    sl4 = value_of(browser, "base_nvr")
    WebDriverWait(browser, WAIT).until(lambda d: explanation_summary(d).startswith(f"base_nvr = {sl4}"))


def overflow(browser) -> int:
    return browser.execute_script("return document.documentElement.scrollWidth - window.innerWidth")


def test_no_horizontal_scroll_at_390_px_and_the_answers_come_first(browser, base):
    browser.set_window_size(390, 844)
    try:
        assert browser.execute_script("return window.innerWidth") <= 400
        open_page(browser, base, NO_ROLL)
        assert overflow(browser) <= 0
        answers_top = browser.find_element(By.ID, "answers").rect["y"]
        assert answers_top < browser.find_element(By.ID, "interpretations").rect["y"]
        assert answers_top < 1000  # below the editor, not below 13 paragraphs (2,630 px before)
        assert browser.find_element(By.ID, "interpretations").get_attribute("open") is None  # folded shut
        answer(browser, "drm A1 night_lv").click()
        WebDriverWait(browser, WAIT).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#explanation ul.tree"))
        browser.find_element(By.CSS_SELECTOR, "#explanation details.picture summary").click()
        assert overflow(browser) <= 0  # the picture scrolls inside its panel (818 px before)
        browser.find_element(By.ID, "compare").click()
        WebDriverWait(browser, WAIT).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".edition-sl4 .answer"))
        assert overflow(browser) <= 0
    finally:
        browser.set_window_size(1400, 1000)


def test_side_by_side_odds_charts_stay_within_their_column(browser, base):
    open_page(browser, base, NO_ROLL)
    browser.find_element(By.ID, "compare").click()
    for edition in ("asl", "sl4"):
        card = answer(browser, "base_nvr", f".edition-{edition}")
        chart = card.find_element(By.CSS_SELECTOR, ".odds-chart")
        assert chart.rect["x"] + chart.rect["width"] <= card.rect["x"] + card.rect["width"]
    assert overflow(browser) <= 0


def test_odds_bars_are_scaled_to_the_largest_and_ordered_as_the_cli_plots_them(browser, base):
    open_page(browser, base, NO_ROLL)
    chart = answer(browser, "base_nvr").find_element(By.CSS_SELECTOR, ".odds-chart")
    bars = chart.find_elements(By.CSS_SELECTOR, "rect.bar")
    labels = [label.get_attribute("textContent") for label in chart.find_elements(By.CSS_SELECTOR, "text.label")]
    assert labels == ["1", "2", "3", "4", "5", "undecided"]  # as tests/test_odds.py's plot, from the same rule
    widths = {bar.get_attribute("data-chance"): float(bar.get_attribute("width")) for bar in bars}
    assert widths["11/36"] == 200 and widths["1/36"] == pytest.approx(200 / 11)
    assert "undecided" in bars[-1].get_attribute("class")


def test_a_share_link_restores_edition_interpretations_and_side_by_side(browser, base):
    link = share(NO_ROLL) + "&e=sl4&on=nvr_row5_as_row6&cmp=1"
    browser.get("about:blank")
    browser.get(base + "/" + link)
    answer(browser, "base_nvr", ".edition-asl")
    assert browser.find_element(By.ID, "compare").is_selected()
    assert Select(browser.find_element(By.ID, "edition")).first_selected_option.get_attribute("value") == "sl4"
    assert browser.find_element(By.CSS_SELECTOR, '#switches input[name="nvr_row5_as_row6"]').is_selected()
    chart = answer(browser, "base_nvr", ".edition-asl").find_element(By.CSS_SELECTOR, ".odds-chart")
    assert "undecided" not in chart.get_attribute("aria-label")  # the switch answers the damaged row
    assert browser.execute_script("return location.hash") == link
    browser.find_element(By.ID, "compare").click()  # one edition again: sl4, from the link
    WebDriverWait(browser, WAIT).until(lambda d: "edition sl4" in status_text(d))
    assert browser.execute_script("return location.hash") == share(NO_ROLL) + "&e=sl4&on=nvr_row5_as_row6"
    switch = browser.find_element(By.CSS_SELECTOR, '#switches input[name="nvr_row5_as_row6"]')
    switch.click()  # off: the link says so
    WebDriverWait(browser, WAIT).until(
        lambda d: d.execute_script("return location.hash") == share(NO_ROLL) + "&e=sl4&off=nvr_row5_as_row6")


def test_an_unreachable_server_says_so_and_retries(browser, base):
    open_page(browser, base)
    browser.execute_cdp_cmd("Network.enable", {})
    browser.execute_cdp_cmd("Network.setBlockedURLs", {"urls": ["*/api/*"]})
    try:
        editor_line(browser, 10).click()
        editor_line(browser, 10).send_keys(Keys.END, " # edited")
        WebDriverWait(browser, WAIT).until(lambda d: "does not answer" in status_text(d))
        retry = browser.find_element(By.CSS_SELECTOR, "#status button.retry")
    finally:
        browser.execute_cdp_cmd("Network.setBlockedURLs", {"urls": []})
    retry.click()
    WebDriverWait(browser, WAIT).until(lambda d: "4 passed, 0 failed" in status_text(d))


@pytest.mark.parametrize("fragment", ["#s=@@@", "#s=_w", "#s=" + share("query base_nvr\n")[3:] + "&e=sl5"])
def test_a_damaged_share_link_says_so_and_the_message_stays(browser, base, fragment):
    browser.get("about:blank")
    browser.get(base + "/" + fragment)
    WebDriverWait(browser, WAIT).until(lambda d: "0 answers" in status_text(d))
    notice = browser.find_element(By.ID, "notice")
    assert notice.is_displayed() and "share link is damaged" in notice.text
    assert browser.find_element(By.CSS_SELECTOR, "#editor .cm-content").text == ""  # no example over it
    time.sleep(1)  # the default example used to replace it at once
    assert notice.is_displayed() and browser.execute_script("return location.hash") == fragment


def test_an_empty_link_answers_at_once(browser, base):
    browser.get("about:blank")
    browser.get(base + "/#s=")
    WebDriverWait(browser, WAIT).until(lambda d: "0 answers" in status_text(d))
    assert browser.find_element(By.ID, "notice").is_displayed() is False


def active(browser):
    return browser.switch_to.active_element


def test_the_keyboard_reaches_opens_and_closes_an_explanation(browser, base):
    open_page(browser, base)
    assert browser.find_element(By.CSS_SELECTOR, "#editor .cm-content").get_attribute("aria-label") == "situation text"
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.TAB)
    assert active(browser).get_attribute("id") == "skip"
    active(browser).send_keys(Keys.ENTER)  # two keys to the first answer (19 Tabs before)
    card = active(browser)
    assert card.get_attribute("data-query") == "base_nvr" and card.get_attribute("role") == "button"
    assert card.get_attribute("aria-label") == "base_nvr = 4: open its explanation"
    outline = browser.execute_script("const s = getComputedStyle(arguments[0]); return [s.outlineStyle, "
                                     "parseFloat(s.outlineWidth)]", card)
    assert outline[0] == "solid" and outline[1] >= 2  # a focus mark that shows
    card.send_keys(Keys.SPACE)
    assert explanation_summary(browser).startswith("base_nvr = 4")
    active(browser).send_keys(Keys.ESCAPE)
    assert not browser.find_element(By.ID, "explanation").is_displayed()
    assert active(browser).get_attribute("data-query") == "base_nvr"  # back where it was
    active(browser).send_keys(Keys.ENTER)
    assert explanation_summary(browser).startswith("base_nvr = 4")


def test_space_on_a_switch_keeps_the_focus_there(browser, base):
    open_page(browser, base)
    switch = browser.find_element(By.CSS_SELECTOR, '#switches input[name="nvr_row5_as_row6"]')
    browser.execute_script("arguments[0].focus()", switch)
    switch.send_keys(Keys.SPACE)
    WebDriverWait(browser, WAIT).until(lambda d: d.find_element(
        By.CSS_SELECTOR, '#switches input[name="nvr_row5_as_row6"]').is_selected() and "ms" in status_text(d))
    assert active(browser).get_attribute("name") == "nvr_row5_as_row6"
    active(browser).send_keys(Keys.SPACE)  # and back
    WebDriverWait(browser, WAIT).until(lambda d: not d.find_element(
        By.CSS_SELECTOR, '#switches input[name="nvr_row5_as_row6"]').is_selected())
    assert active(browser).get_attribute("name") == "nvr_row5_as_row6"


def test_the_explanation_is_a_tree_in_words_with_whole_labels_and_a_legend(browser, base):
    open_page(browser, base)
    answer(browser, "drm A1 night_lv").click()
    WebDriverWait(browser, WAIT).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#explanation ul.tree"))
    _, expected = call(base + "/api/explain", {"text": FIRST_NIGHT, "query": "drm A1 night_lv"})

    def texts(nodes):
        for node in nodes:
            yield node["text"]
            yield from texts(node.get("because", []))

    steps = [step.get_attribute("textContent") for step in
             browser.find_elements(By.CSS_SELECTOR, "#explanation ul.tree .step")]
    longest = max(texts(expected["why"]), key=len)
    assert len(longest) > 24 and any(longest in step for step in steps)  # whole, not cut at 24 characters
    folds = browser.find_elements(By.CSS_SELECTOR, "#explanation ul.tree details")
    assert folds and all(fold.get_attribute("open") is not None for fold in folds)
    folds[0].find_element(By.TAG_NAME, "summary").click()  # collapsible
    assert folds[0].get_attribute("open") is None
    legend = browser.find_element(By.CSS_SELECTOR, "#explanation details.legend")
    assert "exception blocked" in legend.get_attribute("textContent")
    download = browser.find_element(By.CSS_SELECTOR, "#explanation a.download")
    assert download.get_attribute("href").startswith("blob:") and download.get_attribute("download").endswith(".svg")


def test_an_odds_answer_has_an_explanation(browser, base):
    open_page(browser, base, NO_ROLL)
    answer(browser, "base_nvr").click()
    assert explanation_summary(browser).startswith("base_nvr = undecided · rules: E1.12")
    assert "waits for what the situation does not say" in browser.find_element(By.CSS_SELECTOR,
                                                                               "#explanation .reason").text
    labels = [node.get_attribute("textContent") for node in
              browser.find_elements(By.CSS_SELECTOR, "#explanation svg g.node text.id")]
    assert labels == ["base_nvr = undecided", "E1.12", "E1.11", "E1.1"]  # not one empty box


def test_a_failed_expect_of_an_undecided_answer_says_undecided(browser, base):
    open_page(browser, base, "scenario night nvr 2\nunit G1 german squad 4-6-7 at 3B2\n"
              "unit R1 russian squad 4-4-7 at 3B4\nquery base_nvr\nquery may_fire G1 R1\nexpect may_fire G1 R1\n")
    failed = browser.find_element(By.CSS_SELECTOR, ".expectation.failed").text
    assert failed == "FAIL line 6: expect may_fire G1 R1 = yes, got undecided"
    problem = browser.find_element(By.CSS_SELECTOR, "#problems .problem")
    assert problem.text == "line 6, column 1: expect may_fire G1 R1 = yes, got undecided"


def test_every_error_is_listed_and_jumps_to_its_line(browser, base):
    browser.get("about:blank")
    browser.get(base + "/" + share("scenario night\nscenario nvr 2 day\nquery base_nvr\n"))
    WebDriverWait(browser, WAIT).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#problems .problem")) == 2)
    problems = browser.find_elements(By.CSS_SELECTOR, "#problems .problem")
    assert [p.get_attribute("data-line") for p in problems] == ["1", "2"]
    assert problems[1].text.startswith("line 2, column 1: inconsistent situation")
    problems[1].click()
    assert browser.find_element(By.CSS_SELECTOR, "#editor .cm-activeLine").text == "scenario nvr 2 day"


def test_picking_an_example_over_edits_asks_first(browser, base):
    open_page(browser, base)
    editor_line(browser, 1).click()
    editor_line(browser, 1).send_keys(Keys.END, " mine")
    gallery_card(browser, "platoon-night.sit").click()
    WebDriverWait(browser, WAIT).until(lambda d: d.switch_to.alert)
    browser.switch_to.alert.dismiss()
    assert editor_line(browser, 1).text.endswith(" mine")  # kept
    gallery_card_again = next(card for card in browser.find_elements(By.CSS_SELECTOR, "#gallery .example")
                              if card.find_element(By.TAG_NAME, "strong").get_attribute("textContent")
                              == "platoon-night.sit")
    gallery_card_again.click()
    WebDriverWait(browser, WAIT).until(lambda d: d.switch_to.alert)
    browser.switch_to.alert.accept()
    WebDriverWait(browser, WAIT).until(lambda d: editor_line(d, 1).text == PLATOON.splitlines()[0])
    gallery_card(browser, "first-night.sit").click()  # not edited since: no question
    WebDriverWait(browser, WAIT).until(lambda d: editor_line(d, 1).text == FIRST_NIGHT.splitlines()[0])


def test_the_page_follows_a_dark_system_setting(browser, base):
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme",
                                                                         "value": "dark"}]})
    try:
        open_page(browser, base)
        background = browser.execute_script("return getComputedStyle(document.body).backgroundColor")
        card = browser.execute_script("return getComputedStyle(arguments[0]).backgroundColor",
                                      answer(browser, "base_nvr"))
        ink = browser.execute_script("return getComputedStyle(document.querySelector('#editor .cm-content')).color")
    finally:
        browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
    assert luminance(background) < 0.2 and luminance(card) < 0.2 and luminance(ink) > 0.6
    open_page(browser, base)
    assert luminance(browser.execute_script("return getComputedStyle(document.body).backgroundColor")) > 0.9


def luminance(css: str) -> float:
    red, green, blue = (int(part) / 255 for part in css[css.index("(") + 1:css.index(")")].split(",")[:3])
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


# ---- completion and hover, from the language server's module ----------------

def completion_labels(browser) -> list[str]:
    return browser.execute_script("return [...document.querySelectorAll('.cm-tooltip-autocomplete li')]"
                                  ".map((option) => option.querySelector('.cm-completionLabel').textContent)")


def record_requests(browser) -> None:
    """Each request the page makes from now on, in window.asked: its route and whether it was cancelled."""
    browser.execute_script("""
        window.asked = [];
        const send = window.fetch;
        window.fetch = (url, options = {}) => {
          const seen = { route: url, aborted: false };
          window.asked.push(seen);
          if (options.signal) options.signal.addEventListener("abort", () => { seen.aborted = true; });
          return send(url, options);
        };""")


def asked(browser, route: str) -> list[dict]:
    return [r for r in browser.execute_script("return window.asked") if r["route"] == route]


def test_typing_query_offers_the_query_names_and_accepting_one_inserts_it(browser, base):
    from aslkb.api import query_catalog

    open_page(browser, base)
    editor_line(browser, 25).click()
    content = browser.find_element(By.CSS_SELECTOR, "#editor .cm-content")
    content.send_keys(Keys.END, Keys.ENTER, "query ")
    WebDriverWait(browser, WAIT).until(lambda d: "base_nvr" in completion_labels(d))
    assert set(completion_labels(browser)) == set(query_catalog())  # the server's list, every name
    assert content.get_attribute("aria-label") == "situation text"  # still named, and its list announced:
    assert content.get_attribute("aria-autocomplete") == "list"
    listbox = browser.find_element(By.ID, content.get_attribute("aria-controls"))
    assert listbox.get_attribute("role") == "listbox" and listbox.get_attribute("aria-label") == "Completions"
    chosen = browser.find_element(By.ID, content.get_attribute("aria-activedescendant"))
    assert chosen.get_attribute("aria-selected") == "true"
    content.send_keys("night_c")  # filtered as typed, from the list received
    WebDriverWait(browser, WAIT).until(lambda d: completion_labels(d)[:1] == ["night_class"])
    screenshot(browser, "completion.png")
    content.send_keys(Keys.ENTER)  # accepts
    WebDriverWait(browser, WAIT).until(lambda d: editor_line(d, 26).text == "query night_class")
    assert not browser.find_elements(By.CSS_SELECTOR, ".cm-tooltip-autocomplete")
    content.send_keys(" ")  # after the query name: its argument, the units the file defines
    WebDriverWait(browser, WAIT).until(lambda d: completion_labels(d) == ["G1", "G2", "R1"])
    content.send_keys(Keys.ESCAPE)  # closes the list
    WebDriverWait(browser, WAIT).until(lambda d: not d.find_elements(By.CSS_SELECTOR, ".cm-tooltip-autocomplete"))
    assert content.get_attribute("aria-controls") is None
    content.send_keys("G2")
    WebDriverWait(browser, WAIT).until(lambda d: "7 answers" in status_text(d))
    answer(browser, "base_nvr").click()  # an explanation open: Escape in the list closes the list only
    assert explanation_summary(browser).startswith("base_nvr = 4")
    editor_line(browser, 26).click()
    content.send_keys(Keys.END, Keys.ENTER, Keys.CONTROL, Keys.SPACE, Keys.NULL)  # Ctrl-Space on a new line
    WebDriverWait(browser, WAIT).until(lambda d: {"unit", "hex", "query"} <= set(completion_labels(d)))
    content.send_keys(Keys.ESCAPE)
    WebDriverWait(browser, WAIT).until(lambda d: not d.find_elements(By.CSS_SELECTOR, ".cm-tooltip-autocomplete"))
    assert browser.find_element(By.ID, "explanation").is_displayed()
    content.send_keys(Keys.ESCAPE)  # and then the explanation, as before
    assert not browser.find_element(By.ID, "explanation").is_displayed()


def point_at(browser, line: int, word: str) -> None:
    """The mouse over the middle of `word` on editor line `line` (1-based), as a user's pointer moves."""
    x, y = browser.execute_script("""
        const [line, word] = arguments;
        const node = document.querySelectorAll('#editor .cm-line')[line - 1];
        const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
        for (let text = walker.nextNode(); text; text = walker.nextNode()) {
          const at = text.textContent.indexOf(word);
          if (at < 0) continue;
          const range = document.createRange();
          range.setStart(text, at + 1);
          range.setEnd(text, at + 2);
          const box = range.getBoundingClientRect();
          return [box.left + box.width / 2, box.top + box.height / 2];
        }""", line, word)
    for dx in (3, 0):  # a move, then the rest over the word
        browser.execute_cdp_cmd("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x + dx, "y": y})


def hover_text(browser) -> str | None:
    return browser.execute_script("const tip = document.querySelector('.cm-tooltip-hover .hover-help');"
                                  "return tip ? tip.textContent : null")


def test_hovering_a_rule_id_or_a_query_line_shows_its_tooltip(browser, base):
    open_page(browser, base)
    point_at(browser, 1, "E1.7")  # in the opening comment
    WebDriverWait(browser, WAIT).until(lambda d: (hover_text(d) or "").startswith("E1.7 COMBAT"))
    assert "rules/asl/E1/E1.7.lp" in hover_text(browser) and "aslkb rules E1.7" in hover_text(browser)
    assert browser.find_elements(By.CSS_SELECTOR, ".cm-tooltip-hover .hover-help pre")  # its block, as text
    point_at(browser, 20, "base_nvr")  # query base_nvr
    WebDriverWait(browser, WAIT).until(lambda d: (hover_text(d) or "").startswith("base_nvr = 4"))
    assert "rules: E1.12, E1.11, E1.1" in hover_text(browser)
    screenshot(browser, "hover.png")
    point_at(browser, 12, "G1")  # a unit: its line, and the counter data
    WebDriverWait(browser, WAIT).until(lambda d: (hover_text(d) or "").startswith("unit G1, line 12"))
    assert "first line" in hover_text(browser)


def test_a_hover_or_completion_the_text_overtook_is_cancelled(browser, base):
    open_page(browser, base)
    editor_line(browser, 8).click()  # the blank line: the focus in the editor
    record_requests(browser)
    browser.execute_cdp_cmd("Network.enable", {})
    browser.execute_cdp_cmd("Network.emulateNetworkConditions", {"offline": False, "latency": 3000,
                                                                 "downloadThroughput": -1, "uploadThroughput": -1})
    try:
        point_at(browser, 20, "base_nvr")
        WebDriverWait(browser, WAIT).until(lambda d: asked(d, "/api/hover"))  # asked, its answer on its way
        browser.switch_to.active_element.send_keys("#")  # the text changes: a comment on line 8
        WebDriverWait(browser, WAIT).until(lambda d: asked(d, "/api/hover")[0]["aborted"])
        browser.switch_to.active_element.send_keys(Keys.CONTROL, Keys.SPACE, Keys.NULL)
        WebDriverWait(browser, WAIT).until(lambda d: asked(d, "/api/complete"))
        browser.switch_to.active_element.send_keys(" x")
        WebDriverWait(browser, WAIT).until(lambda d: asked(d, "/api/complete")[0]["aborted"])
    finally:
        browser.execute_cdp_cmd("Network.emulateNetworkConditions", {"offline": False, "latency": 0,
                                                                     "downloadThroughput": -1, "uploadThroughput": -1})
    # the hover asked again once typing paused, of the text as it is now
    WebDriverWait(browser, WAIT).until(lambda d: (hover_text(d) or "").startswith("base_nvr = 4"))
    assert len(asked(browser, "/api/hover")) >= 2


def test_an_answer_over_the_clients_share_waits_and_asks_again(browser, base):
    """The page's own requests overlap (an answer, a hover being asked): past its share
    of the workers the server says 429 with Retry-After, and the page asks again."""
    open_page(browser, base)
    browser.execute_script("""
        const send = window.fetch;
        let refused = false;
        window.fetch = (url, options) => {
          if (url !== "/api/answer" || refused) return send(url, options);
          refused = true;
          return Promise.resolve(new Response(JSON.stringify({ error: "this client already has 1 request being "
            + "answered", retry_after: 1 }), { status: 429, headers: { "Content-Type": "application/json" } }));
        };""")
    record_requests(browser)  # around the refusal: both requests are seen
    editor_line(browser, 8).click()
    browser.switch_to.active_element.send_keys("# edited")
    WebDriverWait(browser, WAIT).until(lambda d: len(asked(d, "/api/answer")) == 2)  # refused, then asked again
    WebDriverWait(browser, WAIT).until(lambda d: "4 passed, 0 failed" in status_text(d))
    assert "share" not in status_text(browser)


def test_completion_and_hover_fail_quietly_when_the_server_is_unreachable(browser, base):
    open_page(browser, base)
    editor_line(browser, 8).click()
    said = status_text(browser)
    browser.execute_cdp_cmd("Network.enable", {})
    browser.execute_cdp_cmd("Network.setBlockedURLs", {"urls": ["*/api/*"]})
    try:
        record_requests(browser)
        browser.switch_to.active_element.send_keys(Keys.CONTROL, Keys.SPACE, Keys.NULL)
        point_at(browser, 1, "E1.7")
        WebDriverWait(browser, WAIT).until(lambda d: asked(d, "/api/complete") and asked(d, "/api/hover"))
        time.sleep(1)  # what would have come has come
        assert not browser.find_elements(By.CSS_SELECTOR, ".cm-tooltip-autocomplete, .cm-tooltip-hover")
        assert status_text(browser) == said  # no error message for help that did not come
    finally:
        browser.execute_cdp_cmd("Network.setBlockedURLs", {"urls": []})
    point_at(browser, 20, "base_nvr")  # the server back: help again
    WebDriverWait(browser, WAIT).until(lambda d: (hover_text(d) or "").startswith("base_nvr = 4"))


@contextmanager
def serving(folder: Path):
    """A folder on http://127.0.0.1:PORT (the site's search needs a web origin, not file://)."""
    handler = partial(http.server.SimpleHTTPRequestHandler, directory=str(folder))
    handler.log_message = lambda *args: None
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=30)


def test_the_docs_site_works_offline_with_no_script_error_and_whole_table_cells(browser, tmp_path):
    site = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "-f", str(ROOT / "mkdocs.yml"),
                    "-d", str(site)], check=True, capture_output=True, cwd=tmp_path)
    browser.execute_cdp_cmd("Network.enable", {})
    browser.execute_cdp_cmd("Network.setBlockedURLs", {"urls": ["https://*"]})  # offline: no CDN
    try:
        with serving(site) as url:
            browser.get("about:blank")
            browser.get_log("browser")  # what earlier tests left
            for page in ("", "tutorial/", "commands/"):
                browser.get(f"{url}/{page}")
                WebDriverWait(browser, WAIT).until(lambda d: d.execute_script("return document.readyState")
                                                   == "complete")
                errors = [entry["message"] for entry in browser.get_log("browser") if entry["level"] == "SEVERE"]
                assert not errors, (page, errors)
            browser.get(url + "/")
            cell = browser.find_element(By.XPATH, "//td[code='aslkb check PATH...']/following-sibling::td")
            assert browser.execute_script("return getComputedStyle(arguments[0]).whiteSpace", cell) == "normal"
            content = browser.find_element(By.CSS_SELECTOR, "div.rst-content")
            assert cell.rect["x"] + cell.rect["width"] <= content.rect["x"] + content.rect["width"] + 1
    finally:
        browser.execute_cdp_cmd("Network.setBlockedURLs", {"urls": []})
