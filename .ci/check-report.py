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
- a PNG screenshot, saved where --screenshot says, is not blank (more than one colour).

Exit status 0 when every check passes; 1 with one line per failure otherwise.

    python3 .ci/check-report.py report.html --screenshot report.png \
        [--conformance Results/conformance.csv] [--width 1280] [--height 1800] [--full-page] \
        [--hostile-global pwned --expect-text '<script>']

Needs `chromium` (Debian: apt-get install -y chromium) and Python 3's standard library only.

The DevTools protocol runs over a WebSocket. This script carries its own minimal client (text
frames, masking, fragmentation, ping) instead of `pip install websocket-client`: CI then needs
no package from PyPI, nothing to pin or cache, and the client is small enough to read here.
"""

import argparse
import base64
import csv
import hashlib
import json
import os
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import time
import urllib.parse
import zlib


class CheckFailure(Exception):
    """A problem that ends the run: the browser, the protocol, the screenshot."""


# --- A minimal WebSocket client (RFC 6455), enough for the DevTools protocol ----------------

class WebSocket:
    GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

    def __init__(self, url, timeout):
        parsed = urllib.parse.urlparse(url)
        if parsed.scheme != "ws":
            raise CheckFailure(f"DevTools gave {url!r}, not a ws:// URL")
        self.sock = socket.create_connection((parsed.hostname, parsed.port), timeout=timeout)
        key = base64.b64encode(os.urandom(16)).decode()
        request = (
            f"GET {parsed.path or '/'} HTTP/1.1\r\nHost: {parsed.hostname}:{parsed.port}\r\n"
            "Upgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n")
        self.sock.sendall(request.encode())
        response = b""
        while b"\r\n\r\n" not in response:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise CheckFailure("DevTools closed the connection during the WebSocket handshake")
            response += chunk
        head, rest = response.split(b"\r\n\r\n", 1)
        self.buffer = bytearray(rest)
        lines = head.decode("latin-1").split("\r\n")
        if " 101 " not in lines[0] + " ":
            raise CheckFailure(f"DevTools refused the WebSocket upgrade: {lines[0]}")
        accept = base64.b64encode(hashlib.sha1((key + self.GUID).encode()).digest()).decode()
        headers = {k.strip().lower(): v.strip() for k, _, v in (l.partition(":") for l in lines[1:])}
        if headers.get("sec-websocket-accept") != accept:
            raise CheckFailure("DevTools answered the WebSocket handshake with a wrong accept key")

    def _read(self, count):
        while len(self.buffer) < count:
            chunk = self.sock.recv(max(65536, count - len(self.buffer)))
            if not chunk:
                raise CheckFailure("DevTools closed the WebSocket")
            self.buffer += chunk
        data = bytes(self.buffer[:count])
        del self.buffer[:count]
        return data

    def _send_frame(self, opcode, payload):
        header = bytes([0x80 | opcode])
        length = len(payload)
        if length < 126:
            header += bytes([0x80 | length])
        elif length < 1 << 16:
            header += bytes([0x80 | 126]) + struct.pack("!H", length)
        else:
            header += bytes([0x80 | 127]) + struct.pack("!Q", length)
        mask = os.urandom(4)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.sock.sendall(header + mask + masked)

    def send(self, text):
        self._send_frame(0x1, text.encode())

    def receive(self):
        """The next whole text message."""
        message = b""
        while True:
            first, second = self._read(2)
            opcode, final = first & 0x0F, first & 0x80
            length = second & 0x7F
            if length == 126:
                length = struct.unpack("!H", self._read(2))[0]
            elif length == 127:
                length = struct.unpack("!Q", self._read(8))[0]
            mask = self._read(4) if second & 0x80 else None
            payload = self._read(length)
            if mask:
                payload = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
            if opcode == 0x8:
                raise CheckFailure("DevTools closed the WebSocket")
            if opcode == 0x9:
                self._send_frame(0xA, payload)
                continue
            if opcode == 0xA:
                continue
            message += payload
            if final:
                return message.decode()

    def close(self):
        try:
            self._send_frame(0x8, b"")
        except OSError:
            pass
        self.sock.close()


class DevTools:
    """Commands and events of the DevTools protocol over one browser-level WebSocket."""

    def __init__(self, socket_):
        self.socket = socket_
        self.next_id = 0
        self.events = []

    def call(self, method, params=None, session=None, timeout=60):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        self.socket.send(json.dumps(message))
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            reply = json.loads(self.socket.receive())
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
            if time.monotonic() >= deadline:
                raise CheckFailure(f"the page did not send {method} within {timeout} s")
            self.events.append(json.loads(self.socket.receive()))

    def drain(self, seconds):
        """Collects the events that arrive within `seconds` (late console errors)."""
        self.socket.sock.settimeout(0.2)
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            try:
                self.events.append(json.loads(self.socket.receive()))
            except (socket.timeout, TimeoutError):
                continue
        self.socket.sock.settimeout(60)


# --- The browser --------------------------------------------------------------------------

def start_chromium(profile):
    binary = shutil.which("chromium") or shutil.which("chromium-browser")
    if not binary:
        raise CheckFailure("chromium is not installed (Debian: apt-get install -y chromium)")
    process = subprocess.Popen(
        [binary, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
         "--no-default-browser-check", "--disable-extensions", "--disable-background-networking",
         "--disable-sync", "--disable-component-update", "--hide-scrollbars",
         "--remote-debugging-port=0", f"--user-data-dir={profile}", "about:blank"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    port_file = os.path.join(profile, "DevToolsActivePort")
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise CheckFailure(f"chromium exited with status {process.returncode} at start")
        try:
            with open(port_file) as handle:
                lines = handle.read().split("\n")
            if len(lines) >= 2 and lines[0].strip() and lines[1].strip():
                return process, f"ws://127.0.0.1:{lines[0].strip()}{lines[1].strip()}"
        except FileNotFoundError:
            pass
        time.sleep(0.1)
    process.kill()
    raise CheckFailure("chromium did not open its DevTools port within 30 s")


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
    matrix,
    text: document.body.innerText,
    scripts: document.querySelectorAll("script").length,
    handlers,
    hostile: HOSTILE === null ? null : typeof window[HOSTILE],
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
    profile = tempfile.mkdtemp(prefix="check-report-")
    process = None
    try:
        process, url = start_chromium(profile)
        devtools = DevTools(WebSocket(url, timeout=60))
        target = devtools.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = devtools.call(
            "Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Page", "Runtime", "Log", "Network"):
            devtools.call(f"{domain}.enable", session=session)
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
        devtools.socket.close()
        summary = (f"{len(facts['charts'])} charts, "
                   + (f"a matrix of {facts['matrix']['cells']} cells, " if facts["matrix"] else "")
                   + f"screenshot {width}x{height} with {len(colours)}+ colours in {args.screenshot}")
    except CheckFailure as failure:
        failures.append(str(failure))
        summary = None
    finally:
        if process:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
        shutil.rmtree(profile, ignore_errors=True)
    for failure in failures:
        print(f"check-report: {args.page}: {failure}", file=sys.stderr)
    if failures:
        return 1
    print(f"check-report: {args.page}: ok: {summary}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
