#!/usr/bin/env python3
"""Replays golden scripts in a real browser (Chromium, through Selenium) on `flows web`.

Each script's `given` steps set up a throwaway store (`flows web --in-memory --given SCRIPT`);
its other steps are done on the page as a person would: typing into fields, clicking buttons,
ticking boxes. After every step the page is checked against the screen the golden transcript
recorded for it: the screen's identifier and title, its text, every field with its value, and
every action. `expect result` is checked on the page a flow ends on.

Besides, on the first screen of every flow (its first golden):
  - axe-core's accessibility rules: no serious or critical violation;
  - screenshots 360 and 1280 pixels wide, written to the screenshot folder.

Usage: replay.py FLOWS_BINARY GOLDENS_DIR SCREENSHOT_DIR [SCRIPT ... | --core]

With no script, every golden; --core, the test command's share (see core()).
"""

import os
import re
import subprocess
import sys
import time
from pathlib import Path

from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions
from selenium.webdriver.support.ui import WebDriverWait

# What screen readers hear of a toned phrase, which the transcript does not say.
HIDDEN_WORDS = ("(owed to you) ", "(you owe) ")


def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,900"):
        options.add_argument(argument)
    return webdriver.Chrome(service=Service(os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")), options=options)


def words(line):
    """A script line's words, quotes and escapes read as the harness reads them."""
    result, current, quoted, index, started = [], "", False, 0, False
    while index < len(line):
        char = line[index]
        if quoted:
            if char == "\\" and index + 1 < len(line):
                index += 1
                escape = line[index]
                if escape == "u" and line[index + 1:index + 2] == "{":
                    end = line.index("}", index)
                    current += chr(int(line[index + 2:end], 16))
                    index = end
                else:
                    current += {"n": "\n", "t": "\t", "e": "\x1b", "0": "\0", '"': '"', "\\": "\\"}.get(escape, escape)
            elif char == '"':
                quoted = False
            else:
                current += char
        elif char == '"':
            quoted, started = True, True
        elif char in " \t":
            if current or started:
                result.append(current)
            current, started = "", False
        else:
            current += char
        index += 1
    if current or started:
        result.append(current)
    return result


def transcript_blocks(path):
    """The steps of a transcript, each with the lines of the screen it led to ([] for none)."""
    steps, block = [], None
    first = []
    for line in Path(path).read_text().splitlines():
        if line.startswith("> "):
            block = []
            steps.append((line[2:], block))
        elif line.startswith("result "):
            continue
        elif block is None:
            first.append(line)
        else:
            block.append(line)
    return first[1:], steps  # the first line names the flow


def normalised(text):
    text = re.sub(r"\s+", " ", text)
    for hidden in HIDDEN_WORDS:
        text = text.replace(hidden, "")
    return text.strip()


class Replay:
    def __init__(self, driver, url):
        self.driver, self.url = driver, url

    def page_text(self):
        return normalised(self.driver.find_element(By.TAG_NAME, "body").get_attribute("innerText"))

    def form(self):
        found = self.driver.find_elements(By.ID, "screen")
        return found[0] if found else None

    def submit_fields(self, extra=None):
        """Sends the form's fields without pressing a button, as confirming a field does
        (`extra`: a hidden `do` value besides)."""
        old = self.driver.find_element(By.TAG_NAME, "html")
        self.driver.execute_script(
            "const f = document.getElementById('screen');"
            "if (arguments[0]) { const i = document.createElement('input'); i.type = 'hidden'; i.name = 'do'; i.value = arguments[0]; f.appendChild(i); }"
            "f.requestSubmit()", extra)
        self.wait_for_page(old)

    def click(self, element):
        old = self.driver.find_element(By.TAG_NAME, "html")
        self.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
        self.driver.execute_script("arguments[0].click()", element)
        self.wait_for_page(old)

    def wait_for_page(self, old):
        # Every post answers with a redirect to a new page: wait until the old one is gone
        # and the new one is whole.
        WebDriverWait(self.driver, 15, poll_frequency=0.01).until(expected_conditions.staleness_of(old))
        WebDriverWait(self.driver, 15, poll_frequency=0.01).until(lambda driver: driver.execute_script("return document.readyState") == "complete")

    def button(self, name, value):
        for element in self.driver.find_elements(By.CSS_SELECTOR, f'button[name="{name}"]'):
            if element.get_attribute("value") == value and "default" not in (element.get_attribute("class") or ""):
                return element
        return None

    @staticmethod
    def impossible(line):
        """Why a browser cannot do this step, or None: the harness types what no field of a
        page takes (a line break into a one-line field, one option ticked twice)."""
        parts = words(line)
        if parts[0] == "fill" and any(c in " ".join(parts[2:]) for c in "\r\n"):
            return "a one-line field of a page takes no line break"
        if parts[0] == "choose" and len(set(parts[2:])) != len(parts[2:]):
            return "a box is ticked once"
        return None

    def do(self, line):
        parts = words(line)
        verb = parts[0]
        if verb == "fill":
            field, value = parts[1], " ".join(parts[2:]) if len(parts) > 3 else (parts[2] if len(parts) > 2 else "")
            inputs = self.driver.find_elements(By.CSS_SELECTOR, f'[name="f:{field}"]')
            if not inputs:
                return f"no field {field} to fill"
            self.driver.execute_script(
                "arguments[0].value = arguments[1]; const c = document.createElement('input'); c.type = 'hidden';"
                "c.name = 'confirmed'; c.value = arguments[0].name; arguments[0].form.appendChild(c)", inputs[0], value)
            self.submit_fields()
        elif verb == "choose":
            field, options = parts[1], parts[2:]
            if len(options) == 1 and self.button(f"choose:{field}", options[0]):
                self.click(self.button(f"choose:{field}", options[0]))
                return None
            boxes = self.driver.find_elements(By.CSS_SELECTOR, f'input[type="checkbox"][name="m:{field}"]')
            select = self.driver.find_elements(By.CSS_SELECTOR, f'select[name="c:{field}"]')
            if boxes:
                for box in boxes:
                    if box.is_selected() != (box.get_attribute("value") in options):
                        self.driver.execute_script("arguments[0].checked = !arguments[0].checked", box)
                self.submit_fields()
            elif select and len(options) == 1:
                self.driver.execute_script("arguments[0].value = arguments[1]", select[0], options[0])
                self.submit_fields()
            else:
                return f"no option {' '.join(options)} of {field} to choose"
        elif verb == "tap":
            element = self.button("do", parts[1])
            if element is None:
                return f"no button {parts[1]} to tap"
            self.click(element)
        elif verb in ("back", "cancel", "refresh"):
            # The terminal's Esc (and the page script's refresh), which are not buttons of the
            # screen: a script sends them so.
            self.submit_fields(":" + verb)
        return None

    def check(self, block):
        """What differs between the page and the transcript's screen, in sentences."""
        problems = []
        if not block:
            return problems
        if block[0] == "(the screen is unchanged)":
            return problems
        if block[0] == "(the flow has ended)":
            if self.form() is not None:
                problems.append(f"the flow should have ended; the page shows {self.form().get_attribute('data-screen')}")
            return problems
        header = re.match(r"^== (.*) == \[(.*)\]$", block[0])
        if not header:
            return [f"unreadable transcript line: {block[0]}"]
        heading, screen = header.groups()
        form = self.form()
        shown = form.get_attribute("data-screen") if form is not None else None
        if shown != screen:
            return [f"expected screen {screen}, the page shows {shown}: {self.page_text()[:300]}"]
        title = heading.split(" > ")[-1]
        h1 = self.driver.find_element(By.TAG_NAME, "h1").text
        if normalised(h1) != normalised(title):
            problems.append(f"title {title!r}, the page says {h1!r}")
        text = self.page_text().replace("…", "...")
        for line in block[1:]:
            if "\\" in line:
                continue  # a control character, shown escaped
            if line.startswith("  Actions: "):
                for action in line[len("  Actions: "):].split(" | "):
                    match = re.match(r"^(.*) \(([^,()]+)(?:, [a-z]+)?\)$", action)
                    if match and self.button("do", match.group(2)) is None:
                        problems.append(f"no action {match.group(2)} ({match.group(1)})")
            elif line.startswith("  Tabs: "):
                for tab in line[len("  Tabs: "):].split(" | "):
                    match = re.match(r"^(.*) \(([^,()]+)(, selected)?\)$", tab)
                    if match and self.button("do", match.group(2)) is None:
                        problems.append(f"no tab {match.group(2)}")
            elif line.startswith("    Error: "):
                if normalised(line[len("    Error: "):]) not in text:
                    problems.append(f"no field error {line.strip()!r}")
            elif line.startswith("  QR code of ") or line.startswith("  Avatar: ") or line.startswith("  Picture: "):
                if not self.driver.find_elements(By.CSS_SELECTOR, "figure"):
                    problems.append(f"no figure ({line.strip()})")
            elif re.match(r"^    .* \(([^()\s]+\.[^()\s]+)\): ", line):
                # A table's row: its cell's value, before what it comes to.
                cell, rest = re.match(r"^    .* \(([^()\s]+\.[^()\s]+)\): (.*)$", line).groups()
                inputs = self.driver.find_elements(By.CSS_SELECTOR, f'[name="f:{cell}"]')
                value = "" if rest.startswith("(empty)") else rest.split(" ")[0]
                if not inputs or inputs[0].get_attribute("value") != value:
                    problems.append(f"cell {cell}: transcript {value!r}, page {inputs[0].get_attribute('value') if inputs else None!r}")
            elif line.startswith("  "):
                problems += self.check_field(line.strip())
            else:
                shown = line[len("Error: "):] if line.startswith("Error: ") else line
                if shown.strip() and normalised(shown) not in text:
                    problems.append(f"no text {line.strip()!r}")
        return problems

    def check_field(self, line):
        match = re.match(r"^(.*?) \(([^,()]+), ([a-z-]+)[^)]*\): ?(.*)$", line)
        if not match:
            return []
        label, field, kind, value = match.groups()
        if kind in ("text", "money", "day"):
            inputs = self.driver.find_elements(By.CSS_SELECTOR, f'[name="f:{field}"]')
            if not inputs:
                return [f"no field {field} ({label})"]
            # The transcript writes a value as a script would (quoted when it must be), a typed
            # day with the day it is, and money with its currency; long values cut short.
            if kind == "day" and " → " in value:
                value = value.split(" → ")[0]
            if kind == "money":
                value = value.rsplit(" ", 1)[0]
            if value.startswith('"'):
                value = (words(value) or [""])[0]
            expected = "" if value == "(empty)" else value
            shown = inputs[0].get_attribute("value")
            if inputs[0].get_attribute("type") == "email":
                # A browser trims an email field, as the rules do.
                expected, shown = expected.strip(), shown.strip()
            if "... (" in expected:
                expected = expected.split("... (")[0]
                shown = shown[:len(expected)]
            if shown.replace("\r", "").replace("\n", "") != expected.replace("\n", ""):
                return [f"field {field}: transcript {expected!r}, page {shown!r}"]
        elif kind == "secret":
            if not self.driver.find_elements(By.CSS_SELECTOR, f'input[type="password"][name="f:{field}"]'):
                return [f"no password field {field}"]
        elif kind.startswith("table") or kind in ("choice", "multi-choice", "confirm"):
            if not self.driver.find_elements(By.ID, f"f-{field}"):
                return [f"no {kind} field {field} ({label})"]
        elif not self.driver.find_elements(By.ID, f"f-{field}"):
            return [f"no {kind} field {field} ({label})"]
        return []


def serve(flows, script):
    process = subprocess.Popen(
        [flows, "web", "--in-memory", "--given", str(script), "--port", "0"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    url = process.stdout.readline().strip()
    if not url.startswith("http://127.0.0.1:"):
        process.kill()
        raise RuntimeError(f"flows web did not start for {script}: {process.stderr.read()}")
    return process, url


def replay(driver, flows, script, screenshots, first_of_flow, axe_source):
    process, url = serve(flows, script)
    problems, notes = [], []
    checked = 0
    try:
        driver.delete_all_cookies()
        driver.get(url)
        runner = Replay(driver, url)
        pending, recorded = transcript_blocks(script.with_suffix(".transcript"))
        # The script's own lines (the transcript hides what is typed into a secret field).
        lines = [line.strip() for line in script.read_text().splitlines() if line.strip() and not line.strip().startswith("#")]
        lines = [line for line in lines if not line.startswith("flow ")]
        if len(lines) != len(recorded):
            return 0, [f"the script has {len(lines)} steps, its transcript {len(recorded)}"]
        steps = [(line, block) for line, (_, block) in zip(lines, recorded)]
        for line, block in steps:
            verb = words(line)[0]
            if verb == "given":
                if checked:
                    # Another person's write while the flow waits: a browser's server is set up
                    # once, so the replay ends here (the live-update scenario covers it).
                    notes.append(f"stopped before '{line}': another person's write comes from another browser")
                    break
                # The screen after the set-up is the flow's first.
                pending = block
                continue
            if pending is not None:
                problems += [f"first screen: {p}" for p in runner.check(pending)]
                checked += 1
                if first_of_flow:
                    problems += audit(driver, script.parent.name, screenshots, axe_source)
                pending = None
                if problems:
                    break
            if verb == "expect":
                parts = words(line)
                if parts[1] == "result":
                    text = runner.page_text()
                    if f"ended: {parts[2]} (" not in text:
                        problems.append(f"{line}: the last page says {text[:200]!r}")
                continue
            reason = Replay.impossible(line)
            if reason:
                notes.append(f"stopped before '{line}': {reason}")
                break
            failure = runner.do(line)
            if failure:
                problems.append(f"{line}: {failure}")
                break
            found = runner.check(block)
            checked += 1
            if found:
                problems += [f"after '{line}': {p}" for p in found]
                break
    finally:
        process.terminate()
        process.wait(timeout=10)
    problems_and_notes = problems
    for note in notes:
        print(f"     ({script}: {note})")
    return checked, problems_and_notes


def audit(driver, flow, screenshots, axe_source):
    """axe-core on the flow's first screen, and its screenshots."""
    problems = []
    driver.execute_script(axe_source)
    result = driver.execute_async_script(
        "const done = arguments[arguments.length - 1]; axe.run(document, {resultTypes: ['violations']}).then(done, e => done({error: String(e)}))"
    )
    if "error" in result:
        problems.append(f"axe could not run: {result['error']}")
    for violation in result.get("violations", []):
        if violation.get("impact") in ("serious", "critical"):
            where = ", ".join(node["target"][0] for node in violation["nodes"][:3])
            problems.append(f"accessibility ({violation['impact']}): {violation['id']}: {violation['help']} at {where}")
    for width in (360, 1280):
        driver.set_window_size(width, 900)
        height = driver.execute_script("return Math.max(document.body.scrollHeight, 600)")
        driver.set_window_size(width, min(height + 40, 4000))
        driver.save_screenshot(str(Path(screenshots) / f"{flow}-{width}.png"))
    driver.set_window_size(1280, 900)
    return problems


def serve_app(flows, *arguments):
    process = subprocess.Popen([flows, "web", "--in-memory", "--port", "0", *arguments], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    url = process.stdout.readline().strip()
    if not url.startswith("http://127.0.0.1:"):
        process.kill()
        raise RuntimeError(f"flows web did not start: {process.stderr.read()}")
    return process, url


def live_preview(driver, flows, goldens):
    """Typing an amount, key by key, shows the parts without sending the form (the page's
    script posts it live); Save then sends it as typed."""
    script = goldens / "AddExpense" / "equal.flows"
    process, url = serve(flows, script)
    problems = []
    try:
        driver.delete_all_cookies()
        driver.get(url)
        runner = Replay(driver, url)
        for line in ("choose with bob-stone cy-young", "tap done", "fill description Dinner"):
            runner.do(line)
        amount = driver.find_element(By.CSS_SELECTOR, '[name="f:amount"]')
        page = driver.find_element(By.TAG_NAME, "html")
        amount.send_keys("10")
        expected = "Parts: You 3.34 EUR, Bob Stone 3.33 EUR, Cy Young 3.33 EUR."
        try:
            # The script puts a new footer in place of the old: one read as it goes is read again.
            WebDriverWait(driver, 10, poll_frequency=0.05, ignored_exceptions=(StaleElementReferenceException,)).until(
                lambda d: expected in d.find_element(By.ID, "footer").text)
        except Exception:
            problems.append(f"typing 10 did not show {expected!r}; the footer says {driver.find_element(By.ID, 'footer').text!r}")
        if expected not in driver.find_element(By.ID, "footer").text:
            pass
        elif page != driver.find_element(By.TAG_NAME, "html") or amount.get_attribute("value") != "10":
            problems.append("the page was loaded again while typing")
        if not problems:
            runner.click(runner.button("do", "save"))
            if "AddExpense ended: added (" not in runner.page_text():
                problems.append(f"Save after a live preview: {runner.page_text()[:200]!r}")
    finally:
        process.terminate()
        process.wait(timeout=10)
    return problems


def changes_reach_open_pages(flows):
    """Two people on one `flows web`, each in a browser of their own: Bob adds a taxi with
    Ada, and her open Expenses tab shows it without her doing anything, in place (the page is
    not loaded again)."""
    import tempfile

    problems = []
    with tempfile.TemporaryDirectory() as home:
        process = subprocess.Popen([flows, "web", "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                   env={**os.environ, "FLOWS_HOME": home})
        url = process.stdout.readline().strip()
        ada_driver, bob_driver = browser(), browser()
        try:
            if not url.startswith("http://127.0.0.1:"):
                return [f"flows web did not start: {process.stderr.read()}"]
            ada, bob = Replay(ada_driver, url), Replay(bob_driver, url)
            steps = [
                (ada, "tap create-account"), (ada, "fill email ada@example.com"), (ada, 'fill password "correct horse"'),
                (ada, "fill display-name Ada Lovelace"), (ada, "tap create-account"),
                (bob, "tap create-account"), (bob, "fill email bob@example.com"), (bob, 'fill password "correct horse"'),
                (bob, "fill display-name Bob Stone"), (bob, "tap create-account"),
                (bob, "tap friends"), (bob, "tap add-friend"), (bob, "choose how email"), (bob, "fill value ada@example.com"),
                (bob, "tap find"), (bob, "tap add"),
                (ada, "tap friends"), (ada, "tap friend-requests"), (ada, "choose incoming bob-stone"), (ada, "tap accept"),
                (ada, "back"), (ada, "tap expenses"),
                (bob, "tap expenses"), (bob, "tap add-expense"), (bob, "choose with ada-lovelace"), (bob, "tap done"),
                (bob, "fill description Taxi"), (bob, "fill amount 30"),
            ]
            ada_driver.get(url)
            bob_driver.get(url)
            for person, line in steps:
                failure = person.do(line)
                if failure:
                    return [f"{'Ada' if person is ada else 'Bob'}: {line}: {failure}"]
            if "No activity yet" not in ada.page_text():
                return [f"Ada's Expenses tab before Bob's taxi: {ada.page_text()[:300]!r}"]
            page = ada_driver.find_element(By.TAG_NAME, "html")
            # Ada's keyboard focus is on the Add an expense button (not its hidden copy that Enter
            # sends): it stays there.
            ada_driver.execute_script("document.querySelector('button[name=do][value=add-expense]:not(.default)').focus()")
            bob.do("tap save")
            expected = "You owe Bob Stone 15.00 EUR."
            try:
                WebDriverWait(ada_driver, 15, poll_frequency=0.05, ignored_exceptions=(StaleElementReferenceException,)).until(
                    lambda d: expected in ada.page_text())
            except Exception:
                problems.append(f"Ada's open page did not show {expected!r}; it shows {ada.page_text()[:300]!r}")
            if not problems and page != ada_driver.find_element(By.TAG_NAME, "html"):
                problems.append("Ada's page was loaded again rather than changed in place")
            focused = ada_driver.execute_script("const e = document.activeElement; return e && e.name + '=' + e.value + ' ' + e.className")
            if not problems and (not focused.startswith("do=add-expense ") or "default" in focused):
                problems.append(f"the focus moved to {focused!r} when the screen changed")
            # The page swapped in still works: a tab opens from it.
            if not problems:
                ada.do("tap friends")
                if "owes" not in ada.page_text() and "you owe" not in ada.page_text().lower():
                    problems.append(f"the Friends tab after the update: {ada.page_text()[:300]!r}")
        finally:
            ada_driver.quit()
            bob_driver.quit()
            process.terminate()
            process.wait(timeout=10)
    return problems


def script_typed_in(driver, flows):
    """Script typed into every field of a form is shown as text and never runs."""
    payload = '"><img src=x onerror=alert(1)><script>alert(2)</script>'
    process, url = serve_app(flows)
    problems = []
    try:
        driver.delete_all_cookies()
        driver.get(url)
        runner = Replay(driver, url)
        runner.do("tap create-account")
        for field in ("email", "password", "display-name"):
            element = driver.find_element(By.CSS_SELECTOR, f'[name="f:{field}"]')
            driver.execute_script("arguments[0].value = arguments[1]", element, payload)
        runner.click(runner.button("do", "create-account"))
        try:
            alert = driver.switch_to.alert
            problems.append(f"a script ran: {alert.text}")
            alert.dismiss()
        except Exception:
            pass
        shown = driver.find_element(By.CSS_SELECTOR, '[name="f:display-name"]').get_attribute("value")
        if shown != payload:
            problems.append(f"the name typed came back as {shown!r}")
        if driver.find_elements(By.CSS_SELECTOR, "img[src=x], main script"):
            problems.append("the page holds an element typed into a field")
    finally:
        process.terminate()
        process.wait(timeout=10)
    return problems


def run_worker(flows, scripts, screenshots, axe_source, first_scripts):
    """Replays `scripts` in a browser of its own; their results, in order."""
    driver = browser()
    results = []
    try:
        for script in scripts:
            try:
                checked, problems = replay(driver, flows, script, screenshots, script in first_scripts, axe_source)
            except (WebDriverException, RuntimeError) as error:
                checked, problems = 0, [f"could not replay: {error}"]
            results.append((script, checked, problems))
    finally:
        driver.quit()
    return results


# Besides each flow's first script, what --core replays: the whole app from signing up to
# settling up, and every flow's refusals.
CORE = ("App/", "every-refusal", "AddFriend/by-email", "AddExpense/equal", "SettleUp/whole-and-partial", "Expenses/delete-and-restore", "Groups/trip")


def core(scripts):
    """The scripts the test command replays: each flow's first (its audit and screenshots), the
    sign-up to settle-up path and the error paths. Scripts/bench replays them all."""
    chosen, flows_seen = [], set()
    for script in scripts:
        first = script.parent.name not in flows_seen
        flows_seen.add(script.parent.name)
        if first or any(part in str(script) for part in CORE):
            chosen.append(script)
    return chosen


def main():
    from concurrent.futures import ThreadPoolExecutor

    flows, goldens, screenshots = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3])
    screenshots.mkdir(parents=True, exist_ok=True)
    every = sorted(goldens.glob("*/*.flows"))
    if sys.argv[4:] == ["--core"]:
        scripts = core(every)
    else:
        scripts = [Path(path) for path in sys.argv[4:]] or every
    from axe_selenium_python import Axe
    axe_source = Path(sys.modules[Axe.__module__].__file__).parent.joinpath("node_modules/axe-core/axe.min.js").read_text()
    # Each flow's first script also gets the accessibility audit and the screenshots.
    first_scripts, flows_seen = set(), set()
    for script in scripts:
        if script.parent.name not in flows_seen:
            flows_seen.add(script.parent.name)
            first_scripts.add(script)
    # Browsers side by side, each with whole flows' scripts.
    workers = max(1, int(os.environ.get("WEB_WORKERS", "2")))
    shares = [[] for _ in range(workers)]
    for index, flow in enumerate(sorted(flows_seen)):
        shares[index % workers] += [script for script in scripts if script.parent.name == flow]
    started = time.time()
    with ThreadPoolExecutor(max_workers=workers) as pool:
        results = [result for share in pool.map(lambda share: run_worker(flows, share, screenshots, axe_source, first_scripts), shares) for result in share]
    driver = browser()
    try:
        results.append((Path("(live preview of an amount)"), 1, live_preview(driver, flows, goldens)))
        results.append((Path("(script typed into every field)"), 1, script_typed_in(driver, flows)))
        results.append((Path("(another person's change on an open page)"), 1, changes_reach_open_pages(flows)))
    finally:
        driver.quit()
    failed, screens = 0, 0
    for script, checked, problems in sorted(results, key=lambda result: str(result[0])):
        screens += checked
        if problems:
            failed += 1
            print(f"FAIL {script}")
            for problem in problems[:5]:
                print(f"     {problem}")
        else:
            print(f"ok   {script} ({checked} screens)")
    print(f"{len(scripts)} scripts replayed in a browser, {screens} screens checked, {failed} failed "
          f"({time.time() - started:.0f} s, {workers} browsers); screenshots of {len(flows_seen)} flows in {screenshots}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
