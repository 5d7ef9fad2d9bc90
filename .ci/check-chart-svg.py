#!/usr/bin/env python3
"""Checks the standalone SVG charts `observatory report --charts` writes, as the README shows
them: through an <img> element, where an SVG gets no style sheet, runs no script and loads
nothing.

For each file:

- it is well-formed XML whose root is an <svg> with a width and a height, and it holds no
  script, no foreignObject, no event-handler attribute, no reference outside itself (href,
  url(), @import);
- opened alone in headless Chromium: no console error, no request for anything but the file;
  every line its legend lists is drawn (a path with a non-empty `d` and its points) and it
  draws no line the legend leaves out; no text runs outside the drawing, and no two labels of
  the legend overlap, in the fonts this machine has;
- shown through an <img> element of a small page: the image loads (natural width above zero,
  the file's width), and a PNG screenshot of it, saved in --screenshot-directory as NAME.png,
  is not blank and shows the colour of every backend's line.

Exit status 0 when every check passes; 1 with one line per failure otherwise.

    python3 .ci/check-chart-svg.py Results/charts/*.svg --screenshot-directory charts-png \
        [--scale 2]

Needs `chromium` (Debian: apt-get install -y chromium) and Python 3's standard library only;
the browser and the DevTools protocol over its pipe are check-report.py's.
"""

import argparse
import base64
import html
import importlib.util
import json
import os
import re
import sys
import urllib.parse
import xml.etree.ElementTree as ElementTree

_spec = importlib.util.spec_from_file_location(
    "check_report", os.path.join(os.path.dirname(os.path.abspath(__file__)), "check-report.py"))
check_report = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(check_report)
CheckFailure, DevTools = check_report.CheckFailure, check_report.DevTools

SVG_NAMESPACE = "{http://www.w3.org/2000/svg}"
FORBIDDEN_ELEMENTS = {"script", "foreignObject", "iframe", "object", "embed", "image", "audio",
                      "video", "a"}


# --- The file as text -----------------------------------------------------------------------

def check_file(path, failures):
    """The file's own checks; returns its colour classes' colours ({"c0": "#1f77b4", ...})."""
    try:
        root = ElementTree.parse(path).getroot()
    except ElementTree.ParseError as error:
        failures.append(f"not well-formed XML: {error}")
        return {}
    if root.tag != SVG_NAMESPACE + "svg":
        failures.append(f"the root element is {root.tag}, not an SVG <svg>")
    for attribute in ("width", "height"):
        try:
            if float(root.get(attribute, "0")) <= 0:
                raise ValueError
        except ValueError:
            failures.append(f"the <svg> has no positive {attribute} (an <img> needs its size)")
    style = ""
    for element in root.iter():
        name = element.tag.replace(SVG_NAMESPACE, "")
        if name in FORBIDDEN_ELEMENTS or not element.tag.startswith(SVG_NAMESPACE):
            failures.append(f"it has a <{name}> element")
        for attribute, value in element.attrib.items():
            local = attribute.rsplit("}", 1)[-1]
            if local.lower().startswith("on"):
                failures.append(f"<{name}> has an event-handler attribute {local}")
            if local == "href" and not value.startswith("#"):
                failures.append(f"<{name}> refers outside the file: href={value!r}")
            if "url(" in value and not re.fullmatch(r"[^()]*url\(#[^()]*\)[^()]*", value):
                failures.append(f"<{name}> {local} loads a URL: {value!r}")
        if name == "style":
            style += element.text or ""
    for match in re.finditer(r"url\(\s*([^)]*)\)", style):
        if not match.group(1).strip("'\"").startswith("#"):
            failures.append(f"its style loads a URL: {match.group(0)}")
    if "@import" in style:
        failures.append("its style imports a style sheet")
    return dict(re.findall(r"\.([cr]\d+)\{--c:(#[0-9a-fA-F]{6})\}", style))


# --- The file in the browser ----------------------------------------------------------------

INSPECT = r"""
(() => {
  const svg = document.documentElement;
  const series = {};
  svg.querySelectorAll("g.series").forEach((group) => {
    const path = group.querySelector("path");
    series[group.getAttribute("data-backend")] = {
      d: path ? (path.getAttribute("d") || "") : "",
      circles: group.querySelectorAll("circle").length,
      declared: Number(group.getAttribute("data-points")),
      colourClass: [...group.classList].find((name) => /^[cr]\d+$/.test(name)) || null,
    };
  });
  const box = (element) => {
    const r = element.getBoundingClientRect();
    return { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
  };
  const legend = [...svg.querySelectorAll("g.legend g.entry")].map((entry) => ({
    backend: entry.getAttribute("data-backend"),
    reference: entry.classList.contains("reference"),
    text: box(entry.querySelector("text")),
    label: entry.querySelector("text").textContent,
  }));
  return {
    root: svg.localName,
    namespace: svg.namespaceURI,
    width: svg.getBoundingClientRect().width,
    height: svg.getBoundingClientRect().height,
    series,
    legend,
    texts: [...svg.querySelectorAll("text")].map((text) => ({
      text: text.textContent, box: box(text) })),
    scripts: svg.querySelectorAll("script").length,
  };
})()
"""

SHOW_AS_IMAGE = r"""
new Promise((resolve) => {
  const image = document.querySelector("img");
  const done = () => {
    const r = image.getBoundingClientRect();
    resolve({
      complete: image.complete, naturalWidth: image.naturalWidth,
      naturalHeight: image.naturalHeight,
      clip: { x: r.left + scrollX, y: r.top + scrollY, width: r.width, height: r.height },
    });
  };
  if (image.complete) { done(); } else { image.onload = done; image.onerror = done; }
})
"""


def overlaps(a, b):
    return a["left"] < b["right"] - 0.5 and b["left"] < a["right"] - 0.5 \
        and a["top"] < b["bottom"] - 0.5 and b["top"] < a["bottom"] - 0.5


def check_drawing(facts, failures):
    if facts["root"] != "svg" or facts["namespace"] != "http://www.w3.org/2000/svg":
        failures.append(f"Chromium did not read an SVG document (root {facts['root']!r}:"
                        " a parse error?)")
        return
    if facts["scripts"]:
        failures.append(f"the document has {facts['scripts']} script elements")
    legend = [entry["backend"] for entry in facts["legend"]]
    if not legend:
        failures.append("the legend lists no line")
    for backend in legend:
        series = facts["series"].get(backend)
        if series is None:
            failures.append(f"the legend lists {backend!r} but no line of it is drawn")
        elif not series["d"].strip().startswith("M"):
            failures.append(f"the line of {backend!r} has an empty path (d={series['d']!r})")
        elif series["circles"] < 1 or series["circles"] != series["declared"]:
            failures.append(f"the line of {backend!r} has {series['circles']} points drawn,"
                            f" {series['declared']} declared")
    for backend in facts["series"]:
        if backend not in legend:
            failures.append(f"the line of {backend!r} is drawn but not in the legend")
    width, height = facts["width"], facts["height"]
    for text in facts["texts"]:
        box = text["box"]
        if box["left"] < -0.5 or box["top"] < -0.5 or box["right"] > width + 0.5 \
                or box["bottom"] > height + 0.5:
            failures.append(f"the text {text['text'][:60]!r} runs outside the drawing"
                            f" ({width:.0f}x{height:.0f}): {box}")
    entries = facts["legend"]
    for index, first in enumerate(entries):
        for second in entries[index + 1:]:
            if overlaps(first["text"], second["text"]):
                failures.append(f"the legend's labels {first['label']!r} and {second['label']!r}"
                                " overlap")


def check_screenshot(image, colours_expected, failures, path):
    with open(path, "wb") as handle:
        handle.write(image)
    width, height, colours = check_report.png_colours(image, limit=1 << 20)
    if len(colours) < 3:
        failures.append(f"the screenshot ({width}x{height}) is blank: {len(colours)} colours")
    present = {colour[:3] for colour in colours}
    for name, hexadecimal in sorted(colours_expected.items()):
        rgb = bytes.fromhex(hexadecimal[1:])
        if not any(all(abs(a - b) <= 12 for a, b in zip(rgb, colour)) for colour in present):
            failures.append(f"the screenshot shows no pixel of line colour {name} ({hexadecimal})")
    return width, height, len(colours)


def check_messages(events, allowed, failures):
    for event in events:
        method, params = event.get("method"), event.get("params", {})
        if method == "Runtime.exceptionThrown":
            failures.append(f"uncaught exception: {params.get('exceptionDetails', {}).get('text')}")
        elif method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
            failures.append("console error: " + " ".join(
                str(a.get("value", a.get("description", ""))) for a in params.get("args", [])))
        elif method == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
            failures.append(f"console error: {params['entry'].get('text')}")
        elif method == "Network.requestWillBeSent":
            url = params.get("request", {}).get("url", "")
            if url not in allowed:
                failures.append(f"it requested {url}: it must load nothing")


def open_url(devtools, session, url):
    devtools.events.clear()
    devtools.call("Page.navigate", {"url": url}, session=session)
    devtools.wait_for("Page.loadEventFired", timeout=60)
    devtools.drain(0.3)


def evaluate(devtools, session, expression, what):
    result = devtools.call("Runtime.evaluate", {
        "expression": expression, "returnByValue": True, "awaitPromise": True}, session=session)
    if "exceptionDetails" in result:
        raise CheckFailure(f"{what} failed: {result['exceptionDetails'].get('text')}")
    return result["result"]["value"]


def check_chart(devtools, session, path, args, scratch):
    failures = []
    colours = check_file(path, failures)
    svg_url = "file://" + urllib.parse.quote(os.path.abspath(path))
    open_url(devtools, session, svg_url)
    facts = evaluate(devtools, session, INSPECT, "inspecting the file")
    check_messages(devtools.events, {svg_url}, failures)
    check_drawing(facts, failures)
    drawn = {series["colourClass"] for backend, series in facts.get("series", {}).items()
             if any(entry["backend"] == backend and not entry["reference"]
                    for entry in facts.get("legend", []))}
    expected = {name: colours[name] for name in drawn if name in colours}

    # The README's way: an <img> of the file in a page of its own.
    page = os.path.join(scratch, "image.html")
    with open(page, "w", encoding="utf-8") as handle:
        handle.write("<!DOCTYPE html><html><head><meta charset=\"utf-8\"><style>body{margin:8px;"
                     "background:#f6f8fa}img{display:block}</style></head><body>"
                     f"<img alt=\"chart\" src=\"{html.escape(svg_url)}\"></body></html>")
    page_url = "file://" + urllib.parse.quote(page)
    open_url(devtools, session, page_url)
    image = evaluate(devtools, session, SHOW_AS_IMAGE, "showing the file as an image")
    check_messages(devtools.events, {page_url, svg_url}, failures)
    if not image["complete"] or image["naturalWidth"] <= 0 or image["naturalHeight"] <= 0:
        failures.append(f"as an <img> it does not load (natural size {image['naturalWidth']}x"
                        f"{image['naturalHeight']})")
        return failures, None
    if abs(image["naturalWidth"] - facts["width"]) > 1:
        failures.append(f"as an <img> it is {image['naturalWidth']} px wide, alone"
                        f" {facts['width']:.0f} px")
    shot = devtools.call("Page.captureScreenshot", {
        "format": "png", "captureBeyondViewport": True,
        "clip": dict(image["clip"], scale=args.scale)}, session=session)
    screenshot = os.path.join(args.screenshot_directory,
                              os.path.splitext(os.path.basename(path))[0] + ".png")
    width, height, count = check_screenshot(
        base64.b64decode(shot["data"]), expected, failures, screenshot)
    return failures, (f"{image['naturalWidth']}x{image['naturalHeight']},"
                      f" {len(facts['legend'])} lines, screenshot {width}x{height} with {count}"
                      f" colours in {screenshot}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("charts", nargs="+", help="the SVG files observatory report --charts wrote")
    parser.add_argument("--screenshot-directory", required=True,
                        help="where to save a PNG screenshot of each chart (made if missing)")
    parser.add_argument("--scale", type=float, default=1,
                        help="device pixels per CSS pixel of the screenshots (2 for a close look)")
    args = parser.parse_args()

    os.makedirs(args.screenshot_directory, exist_ok=True)
    missing = [path for path in args.charts if not os.path.isfile(path)]
    for path in missing:
        print(f"check-chart-svg: {path}: no such file", file=sys.stderr)
    if missing:
        return 1
    status = 0
    try:
        with check_report.browser_session("check-chart-svg-") as (devtools, session, scratch):
            devtools.call("Emulation.setDeviceMetricsOverride", {
                "width": 1200, "height": 900, "deviceScaleFactor": 1, "mobile": False},
                session=session)
            for path in args.charts:
                try:
                    failures, summary = check_chart(devtools, session, path, args, scratch)
                except CheckFailure as failure:
                    failures, summary = [str(failure)], None
                for failure in failures:
                    print(f"check-chart-svg: {path}: {failure}", file=sys.stderr)
                if failures:
                    status = 1
                else:
                    print(f"check-chart-svg: {path}: ok: {summary}")
    except CheckFailure as failure:
        print(f"check-chart-svg: {failure}", file=sys.stderr)
        status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
