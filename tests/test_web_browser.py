"""The playground page driven in headless Chromium (Debian's chromium and
chromium-driver, through Selenium, never downloading a browser or driver).

Skipped where no browser is installed; .ci/run installs one. Set
ASLKB_CHROMIUM / ASLKB_CHROMEDRIVER to use other binaries, and
ASLKB_SCREENSHOTS=DIR to save the page's pictures there (docs/img).
"""
from __future__ import annotations

import base64
import os
import tempfile
from pathlib import Path

import pytest

from web_helpers import running

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
    picture = browser.find_element(By.CSS_SELECTOR, selector)
    labels = [node.text for node in picture.find_elements(By.CSS_SELECTOR, "g.node text.id")]
    assert labels[0] == "drm A1 night_lv = 1"
    assert "E1.7" in labels and "E1.7 EXC" in labels and "line 17" in labels  # the rule, its exceptions, the attack
    assert browser.find_element(By.CSS_SELECTOR, "#explanation h2").text == "Why: drm A1 night_lv"
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
