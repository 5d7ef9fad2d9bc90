#!/usr/bin/env python3
"""Loads a page `observatory report` wrote in Debian's headless Chromium and checks what a
person would see, through the DevTools protocol:

- no console error, no uncaught exception, no request for anything but the page itself;
- every chart's SVG has a path with a non-empty `d`, and its points, for every backend its
  legend lists (and no line the legend leaves out);
- the conformance matrix, when the page has one, has one cell per rule and backend (counted
  from the CSV with --conformance, else from the matrix's own header);
- with --hostile-global NAME, the global a hostile payload would set is undefined, the page's
  one script is the only script element, no element has an event-handler attribute, and every
  --expect-text shows as text;
- the page does not scroll sideways at the width given (phones: --width 390);
- with --tables-fit, no table scrolls sideways in its own frame either (a trend's tables on a
  desktop);
- with --expect-charts N, it has N charts; with --side-by-side, the first two charts of each
  group of machines (a trend page's `.machines`) sit side by side, not one under the other;
- a PNG screenshot, saved where --screenshot says, is not blank (more than one colour).

Exit status 0 when every check passes; 1 with one line per failure otherwise.

    python3 .ci/check-report.py report.html --screenshot report.png \
        [--conformance Results/conformance.csv] [--width 1280] [--height 1800] [--full-page] \
        [--hostile-global pwned --expect-text '<script>'] [--expect-charts 9 --side-by-side]

Needs `chromium` (Debian: apt-get install -y chromium) and Python 3's standard library only.

The DevTools protocol runs over Chromium's `--remote-debugging-pipe`: the browser reads
commands from file descriptor 3 and writes replies and events to descriptor 4, each message a
JSON text ended by a NUL byte. No port, no WebSocket client, nothing from PyPI: a pipe is private
to this process and the browser, and ends when either does.
"""

import argparse
import base64
import contextlib
import csv
import fcntl
import json
import os
import select
import shutil
import struct
import subprocess
import sys
import tempfile
import time
import urllib.parse
import zlib


class CheckFailure(Exception):
    """A problem that ends the run: the browser, the protocol, the screenshot."""


# --- The DevTools protocol over a pipe -------------------------------------------------------

class Pipe:
    """This side of `--remote-debugging-pipe`: each message one JSON text, ended by a NUL byte."""

    def __init__(self, to_browser, from_browser, process):
        self.to_browser = to_browser
        self.from_browser = from_browser
        self.process = process
        self.buffer = bytearray()

    def send(self, text):
        data = memoryview(text.encode() + b"\0")
        while data:
            try:
                written = os.write(self.to_browser, data)
            except BrokenPipeError:
                raise CheckFailure(self._closed()) from None
            data = data[written:]

    def receive(self, timeout):
        """The next whole message; TimeoutError when none is whole within `timeout` seconds."""
        deadline = time.monotonic() + timeout
        while b"\0" not in self.buffer:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not select.select([self.from_browser], [], [], remaining)[0]:
                raise TimeoutError
            chunk = os.read(self.from_browser, 1 << 20)
            if not chunk:
                raise CheckFailure(self._closed())
            self.buffer += chunk
        end = self.buffer.index(b"\0")
        message = bytes(self.buffer[:end])
        del self.buffer[:end + 1]
        return message.decode()

    def _closed(self):
        try:
            status = self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            return "chromium closed its DevTools pipe"
        return f"chromium closed its DevTools pipe: it exited with status {status}"

    def close(self):
        for descriptor in (self.to_browser, self.from_browser):
            try:
                os.close(descriptor)
            except OSError:
                pass


class DevTools:
    """Commands and events of the DevTools protocol over the browser's pipe."""

    def __init__(self, pipe):
        self.pipe = pipe
        self.next_id = 0
        self.events = []

    def _next(self, deadline):
        """The next message, or None when none arrives by `deadline` (time.monotonic())."""
        try:
            return json.loads(self.pipe.receive(max(0, deadline - time.monotonic())))
        except TimeoutError:
            return None

    def call(self, method, params=None, session=None, timeout=60):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        self.pipe.send(json.dumps(message))
        deadline = time.monotonic() + timeout
        while (reply := self._next(deadline)) is not None:
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise CheckFailure(f"DevTools {method} failed: {reply['error'].get('message')}")
                return reply.get("result", {})
            self.events.append(reply)
        raise CheckFailure(f"DevTools {method} did not answer within {timeout} s")

    def wait_for(self, method, timeout):
        deadline = time.monotonic() + timeout
        while True:
            for event in self.events:
                if event.get("method") == method:
                    return event
            event = self._next(deadline)
            if event is None:
                raise CheckFailure(f"the page did not send {method} within {timeout} s")
            self.events.append(event)

    def drain(self, seconds):
        """Collects the events that arrive within `seconds` (late console errors)."""
        deadline = time.monotonic() + seconds
        while (event := self._next(deadline)) is not None:
            self.events.append(event)


# --- The browser ----------------------------------------------------------------------------

# Where `--remote-debugging-pipe` makes the browser read commands and write replies and events.
BROWSER_READS, BROWSER_WRITES = 3, 4


def start_chromium(profile):
    """Starts headless Chromium with the DevTools protocol on descriptors 3 and 4."""
    binary = shutil.which("chromium") or shutil.which("chromium-browser")
    if not binary:
        raise CheckFailure("chromium is not installed (Debian: apt-get install -y chromium)")
    browser_reads, to_browser = os.pipe()
    from_browser, browser_writes = os.pipe()
    # Copies of the browser's ends above 3 and 4, so that putting one end in place cannot
    # overwrite the other (os.pipe may have returned 3 or 4 for either).
    high = [fcntl.fcntl(end, fcntl.F_DUPFD_CLOEXEC, 10) for end in (browser_reads, browser_writes)]

    def place_pipe_ends():
        # In the child, before exec: dup2 leaves 3 and 4 inheritable, the copies close at exec.
        os.dup2(high[0], BROWSER_READS)
        os.dup2(high[1], BROWSER_WRITES)

    try:
        # pass_fds keeps 3 and 4 open across exec (Popen closes every other descriptor from 3
        # up after preexec_fn). It makes them inheritable before preexec_fn runs, so they must
        # be open here: with descriptors 0 to 2 open, the two os.pipe calls fill 3 and 4 if
        # nothing else did.
        process = subprocess.Popen(
            [binary, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
             "--no-default-browser-check", "--disable-extensions",
             "--disable-background-networking", "--disable-sync", "--disable-component-update",
             "--hide-scrollbars", "--remote-debugging-pipe", f"--user-data-dir={profile}",
             "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            pass_fds=(BROWSER_READS, BROWSER_WRITES), preexec_fn=place_pipe_ends)
    except BaseException:
        for descriptor in (to_browser, from_browser):
            os.close(descriptor)
        raise
    finally:
        # Only the browser keeps its ends: our reads see the end of the pipe when it exits.
        for descriptor in high + [browser_reads, browser_writes]:
            os.close(descriptor)
    return process, Pipe(to_browser, from_browser, process)


@contextlib.contextmanager
def browser_session(prefix):
    """A headless Chromium in a new profile, with one page attached over the protocol: yields
    (DevTools, session id, scratch directory). On leaving, the browser quits (closing our end
    of the pipe asks it to; terminate and kill make sure) and the scratch directory goes."""
    scratch = tempfile.mkdtemp(prefix=prefix)
    process = pipe = None
    try:
        process, pipe = start_chromium(os.path.join(scratch, "profile"))
        devtools = DevTools(pipe)
        target = devtools.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = devtools.call(
            "Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Page", "Runtime", "Log", "Network"):
            devtools.call(f"{domain}.enable", session=session)
        yield devtools, session, scratch
    finally:
        if pipe:
            pipe.close()
        if process:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
        shutil.rmtree(scratch, ignore_errors=True)


# --- What the page shows --------------------------------------------------------------------

INSPECT = r"""
(() => {
  const charts = [...document.querySelectorAll("figure.chart")].map((figure) => {
    const svg = figure.querySelector("svg");
    const box = svg ? svg.getBoundingClientRect() : { width: 0, height: 0 };
    const series = {};
    figure.querySelectorAll("svg g.series").forEach((group) => {
      const path = group.querySelector("path");
      series[group.getAttribute("data-backend")] = {
        d: path ? (path.getAttribute("d") || "") : "",
        circles: group.querySelectorAll("circle").length,
        declared: Number(group.getAttribute("data-points")),
      };
    });
    return {
      id: figure.id,
      title: (figure.querySelector("h3") || { textContent: figure.id }).textContent,
      legend: [...figure.querySelectorAll("ul.legend li")].map((li) => li.getAttribute("data-backend")),
      series,
      viewBox: svg ? svg.getAttribute("viewBox") : null,
      width: box.width,
      height: box.height,
    };
  });
  const grids = [...document.querySelectorAll(".machines")].map((grid) =>
    [...grid.querySelectorAll(":scope > figure.chart")].map((figure) => {
      const box = figure.getBoundingClientRect();
      return { top: box.top, left: box.left };
    }));
  const table = document.querySelector("table.matrix");
  const matrix = table && {
    backends: [...table.querySelectorAll("thead th.backend")].map((th) => th.textContent),
    rules: [...table.querySelectorAll("tbody tr")].map((tr) => tr.getAttribute("data-rule")),
    cellsPerRow: [...table.querySelectorAll("tbody tr")].map((tr) => tr.querySelectorAll("td.outcome").length),
    cells: table.querySelectorAll("td.outcome").length,
  };
  const handlers = [...document.querySelectorAll("*")].flatMap((element) =>
    [...element.attributes].filter((a) => a.name.toLowerCase().startsWith("on"))
      .map((a) => element.tagName.toLowerCase() + "[" + a.name + "]"));
  return {
    charts,
    grids,
    matrix,
    text: document.body.innerText,
    scripts: document.querySelectorAll("script").length,
    handlers,
    hostile: HOSTILE === null ? null : typeof window[HOSTILE],
    wideTables: [...document.querySelectorAll(".table-wrap")]
      .filter((wrap) => wrap.scrollWidth > wrap.clientWidth + 1)
      .map((wrap) => ((wrap.closest("figure") || { id: "the page" }).id || "a table")
        + ": " + wrap.scrollWidth + " px in " + wrap.clientWidth),
    pageWidth: document.documentElement.scrollWidth,
    viewportWidth: window.innerWidth,
  };
})()
"""


def check_page(facts, args, failures):
    charts = facts["charts"]
    if not charts:
        failures.append("the page has no chart (figure.chart)")
    for chart in charts:
        name = f"chart {chart['id']} ({chart['title']})"
        if not chart["viewBox"]:
            failures.append(f"{name}: its SVG has no viewBox")
        if chart["width"] <= 0 or chart["height"] <= 0:
            failures.append(f"{name}: its SVG is not drawn ({chart['width']}x{chart['height']})")
        for backend in chart["legend"]:
            series = chart["series"].get(backend)
            if series is None:
                failures.append(f"{name}: the legend lists {backend!r} but the SVG has no line of it")
            elif not series["d"].strip().startswith("M"):
                failures.append(f"{name}: the line of {backend!r} has an empty path (d={series['d']!r})")
            elif series["circles"] < 1 or series["circles"] != series["declared"]:
                failures.append(
                    f"{name}: the line of {backend!r} has {series['circles']} points drawn,"
                    f" {series['declared']} declared")
        for backend in chart["series"]:
            if backend not in chart["legend"]:
                failures.append(f"{name}: the SVG draws {backend!r}, which the legend does not list")
    matrix = facts["matrix"]
    if args.conformance:
        with open(args.conformance, newline="", encoding="utf-8") as handle:
            rows = list(csv.DictReader(handle))
        rules = list(dict.fromkeys(row["rule"] for row in rows))
        backends = list(dict.fromkeys(row["backend"] for row in rows))
        if matrix is None:
            failures.append("--conformance was given but the page has no table.matrix")
        else:
            if matrix["rules"] != rules:
                failures.append(
                    f"the matrix has {len(matrix['rules'])} rules, {args.conformance} has {len(rules)}")
            if matrix["backends"] != backends:
                failures.append(
                    f"the matrix's backends are {matrix['backends']}, {args.conformance} has {backends}")
            if matrix["cells"] != len(rules) * len(backends):
                failures.append(
                    f"the matrix has {matrix['cells']} cells; {len(rules)} rules x"
                    f" {len(backends)} backends need {len(rules) * len(backends)}")
    if matrix is not None:
        wrong = [rule for rule, count in zip(matrix["rules"], matrix["cellsPerRow"])
                 if count != len(matrix["backends"])]
        if wrong:
            failures.append(
                f"the matrix's rows {wrong[:5]} do not have one cell per backend"
                f" ({len(matrix['backends'])})")
    if args.hostile_global:
        if facts["hostile"] != "undefined":
            failures.append(
                f"the hostile payload ran: window.{args.hostile_global} is {facts['hostile']}")
        if facts["scripts"] != 1:
            failures.append(f"the page has {facts['scripts']} script elements; its own is the only one")
        if facts["handlers"]:
            failures.append(f"elements carry event-handler attributes: {facts['handlers'][:5]}")
    for text in args.expect_text:
        if text not in facts["text"]:
            failures.append(f"the text {text!r} does not show on the page")
    if args.expect_charts is not None and len(charts) != args.expect_charts:
        failures.append(f"the page has {len(charts)} charts, {args.expect_charts} expected")
    if args.side_by_side:
        if not facts["grids"]:
            failures.append("--side-by-side: the page has no group of machines (.machines)")
        for index, boxes in enumerate(facts["grids"]):
            if len(boxes) >= 2 and not (abs(boxes[0]["top"] - boxes[1]["top"]) < 1
                                        and boxes[1]["left"] > boxes[0]["left"]):
                failures.append(
                    f"group {index + 1} of machines: its first two charts are not side by side"
                    f" ({boxes[0]} and {boxes[1]})")
    if args.tables_fit and facts["wideTables"]:
        failures.append(
            f"{len(facts['wideTables'])} table(s) scroll sideways: {facts['wideTables'][:3]}")
    if facts["pageWidth"] > facts["viewportWidth"] + 1:
        failures.append(
            f"the page is {facts['pageWidth']} px wide in a {facts['viewportWidth']} px window:"
            " it scrolls sideways")


def check_messages(events, page_url, failures):
    for event in events:
        method, params = event.get("method"), event.get("params", {})
        if method == "Runtime.exceptionThrown":
            details = params.get("exceptionDetails", {})
            text = details.get("exception", {}).get("description") or details.get("text")
            failures.append(f"uncaught exception: {text}")
        elif method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
            text = " ".join(str(a.get("value", a.get("description", ""))) for a in params.get("args", []))
            failures.append(f"console error: {text}")
        elif method == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
            failures.append(f"console error: {params['entry'].get('text')}")
        elif method == "Network.requestWillBeSent":
            url = params.get("request", {}).get("url", "")
            if url != page_url and not url.startswith("data:"):
                failures.append(f"the page requested {url}: it must load nothing")


# --- The screenshot -------------------------------------------------------------------------

def png_colours(data, limit=64):
    """Distinct colours of a PNG (up to `limit`), decoded with zlib from the standard library."""
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise CheckFailure("the screenshot is not a PNG file")
    position, chunks, header = 8, [], None
    while position < len(data):
        length, kind = struct.unpack("!I4s", data[position:position + 8])
        body = data[position + 8:position + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack("!IIBBBBB", body)
        elif kind == b"IDAT":
            chunks.append(body)
        position += 12 + length
    width, height, depth, colour_type, _, _, interlace = header
    channels = {0: 1, 2: 3, 4: 2, 6: 4}.get(colour_type)
    if depth != 8 or channels is None or interlace:
        raise CheckFailure(f"the screenshot's PNG format is not one this check reads"
                           f" (depth {depth}, colour type {colour_type}, interlace {interlace})")
    raw = zlib.decompress(b"".join(chunks))
    stride = width * channels
    previous = bytearray(stride)
    colours = set()
    for row in range(height):
        start = row * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        if kind == 1:
            for i in range(channels, stride):
                line[i] = (line[i] + line[i - channels]) & 0xFF
        elif kind == 2:
            for i in range(stride):
                line[i] = (line[i] + previous[i]) & 0xFF
        elif kind == 3:
            for i in range(stride):
                left = line[i - channels] if i >= channels else 0
                line[i] = (line[i] + ((left + previous[i]) >> 1)) & 0xFF
        elif kind == 4:
            for i in range(stride):
                a = line[i - channels] if i >= channels else 0
                b, c = previous[i], previous[i - channels] if i >= channels else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                predictor = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[i] = (line[i] + predictor) & 0xFF
        if len(colours) < limit:
            for i in range(0, stride, channels * 3):
                colours.add(bytes(line[i:i + channels]))
        previous = line
    return width, height, colours


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("page", help="the HTML file observatory report wrote")
    parser.add_argument("--screenshot", required=True, help="where to save the PNG screenshot")
    parser.add_argument("--conformance", help="the matrix CSV the page shows, to count its cells")
    parser.add_argument("--hostile-global", help="a global a hostile payload would set")
    parser.add_argument("--expect-text", action="append", default=[],
                        help="text that must show on the page as text (repeatable)")
    parser.add_argument("--expect-charts", type=int, help="how many charts the page must have")
    parser.add_argument("--side-by-side", action="store_true",
                        help="a trend page: each group of machines draws its charts side by side")
    parser.add_argument("--tables-fit", action="store_true",
                        help="every table shows whole at this width, none scrolls sideways")
    parser.add_argument("--width", type=int, default=1280, help="window width in CSS pixels")
    parser.add_argument("--height", type=int, default=1800, help="window height in CSS pixels")
    parser.add_argument("--full-page", action="store_true", help="screenshot the whole page")
    parser.add_argument("--element", help="screenshot only the first element this CSS selector"
                        " matches (e.g. '#conformance'), wherever it is on the page")
    parser.add_argument("--clip-height", type=int,
                        help="with --element: at most this many CSS pixels of it, from its top")
    args = parser.parse_args()

    if not os.path.isfile(args.page):
        print(f"check-report: {args.page}: no such file", file=sys.stderr)
        return 1
    page_url = "file://" + urllib.parse.quote(os.path.abspath(args.page))
    failures = []
    try:
        with browser_session("check-report-") as (devtools, session, _):
            devtools.call("Emulation.setDeviceMetricsOverride", {
                "width": args.width, "height": args.height, "deviceScaleFactor": 1,
                "mobile": args.width < 600}, session=session)
            devtools.events.clear()
            devtools.call("Page.navigate", {"url": page_url}, session=session)
            devtools.wait_for("Page.loadEventFired", timeout=60)
            devtools.drain(0.5)
            expression = INSPECT.replace("HOSTILE", json.dumps(args.hostile_global))
            result = devtools.call("Runtime.evaluate", {
                "expression": expression, "returnByValue": True}, session=session)
            if "exceptionDetails" in result:
                raise CheckFailure(f"inspecting the page failed: {result['exceptionDetails'].get('text')}")
            facts = result["result"]["value"]
            check_messages(devtools.events, page_url, failures)
            check_page(facts, args, failures)
            shot = {"format": "png"}
            if args.element:
                box = devtools.call("Runtime.evaluate", {"expression": (
                    "(() => { const e = document.querySelector(%s); if (!e) return null;"
                    " const r = e.getBoundingClientRect(); return {x: r.left + scrollX,"
                    " y: r.top + scrollY, width: r.width, height: r.height}; })()"
                    % json.dumps(args.element)), "returnByValue": True}, session=session)
                clip = box["result"].get("value")
                if not clip or clip["width"] <= 0 or clip["height"] <= 0:
                    raise CheckFailure(f"--element {args.element!r} matches nothing drawn")
                if args.clip_height:
                    clip["height"] = min(clip["height"], args.clip_height)
                shot.update({"captureBeyondViewport": True, "clip": dict(clip, scale=1)})
            elif args.full_page:
                size = devtools.call("Page.getLayoutMetrics", session=session)["cssContentSize"]
                shot.update({"captureBeyondViewport": True, "clip": {
                    "x": 0, "y": 0, "width": size["width"], "height": size["height"], "scale": 1}})
            image = base64.b64decode(devtools.call("Page.captureScreenshot", shot, session=session)["data"])
            with open(args.screenshot, "wb") as handle:
                handle.write(image)
            width, height, colours = png_colours(image)
            if len(colours) < 2:
                failures.append(f"the screenshot ({width}x{height}) is blank: one colour")
            summary = (f"{len(facts['charts'])} charts, "
                       + (f"a matrix of {facts['matrix']['cells']} cells, " if facts["matrix"] else "")
                       + f"screenshot {width}x{height} with {len(colours)}+ colours in {args.screenshot}")
    except CheckFailure as failure:
        failures.append(str(failure))
        summary = None
    for failure in failures:
        print(f"check-report: {args.page}: {failure}", file=sys.stderr)
    if failures:
        return 1
    print(f"check-report: {args.page}: ok: {summary}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
