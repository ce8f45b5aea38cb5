#!/usr/bin/python3
"""Loads the web page in headless Chromium and checks what it reports (scripts/web-check.sh).

Serves PAGE_DIR on 127.0.0.1 (a free port), drives Chromium over the DevTools protocol
(Debian's python3-websocket), waits until the page's <body data-*> attributes say it is ready
and has drawn frames that cover pixels, optionally drops a file on it, and writes screenshots.
Exits 1 when the page reports an error, draws nothing, or is not ready in time.
"""

import argparse
import base64
import functools
import http.server
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

import websocket  # Debian: python3-websocket

# Chromium flags: software WebGL (SwiftShader through ANGLE), and nothing that reaches for the
# network (a closed network otherwise stalls start-up on component updates and sync).
CHROMIUM_FLAGS = [
    "--headless",
    "--use-angle=swiftshader",
    "--enable-unsafe-swiftshader",
    "--ignore-gpu-blocklist",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-default-apps",
    "--disable-extensions",
    "--no-first-run",
    "--no-default-browser-check",
    "--mute-audio",
    "--remote-debugging-port=0",
    "--window-size=1280,800",
]
# Seconds Chromium gets to open its DevTools port.
BROWSER_START_SECONDS = 30
# How often the page's state is read while waiting (seconds).
POLL_SECONDS = 0.25
# Share of the frame that must differ from the clear colour: a few characters cover more.
MIN_COVERED = 0.002


class CheckFailed(Exception):
    pass


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # noqa: A002 (the base class's name)
        pass


def serve(directory):
    handler = functools.partial(QuietHandler, directory=directory)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


class Browser:
    """One headless Chromium with a fresh profile, and a DevTools session on one tab."""

    def __init__(self, chromium, timeout):
        self.profile = tempfile.mkdtemp(prefix="throng-chromium-")
        flags = CHROMIUM_FLAGS + [f"--user-data-dir={self.profile}"]
        if os.geteuid() == 0:
            flags.append("--no-sandbox")  # Chromium refuses to run as root with its sandbox
        self.log = open(os.path.join(self.profile, "chromium.log"), "w+")
        self.process = subprocess.Popen([chromium] + flags + ["about:blank"], stdout=self.log,
                                        stderr=subprocess.STDOUT)
        port_file = os.path.join(self.profile, "DevToolsActivePort")
        deadline = time.monotonic() + BROWSER_START_SECONDS
        while not os.path.exists(port_file) or os.path.getsize(port_file) == 0:
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise CheckFailed("chromium did not start:\n" + self.chromiumLog())
            time.sleep(0.1)
        time.sleep(0.1)
        port = open(port_file).read().split()[0]
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=10) as r:
            targets = [t for t in json.load(r) if t.get("type") == "page"]
        if not targets:
            raise CheckFailed("chromium has no page to drive")
        # A page busy in a long frame answers only after it: wait as long as the whole check may.
        self.socket = websocket.create_connection(targets[0]["webSocketDebuggerUrl"],
                                                  timeout=timeout)
        self.next_id = 0
        self.console = []
        self.call("Runtime.enable")
        self.call("Page.enable")

    def chromiumLog(self):
        self.log.flush()
        self.log.seek(0)
        return self.log.read()[-4000:]

    def call(self, method, **params):
        self.next_id += 1
        self.socket.send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        while True:
            try:
                message = json.loads(self.socket.recv())
            except websocket.WebSocketTimeoutException:
                raise CheckFailed(f"{method}: the browser did not answer in time") from None
            except websocket.WebSocketException as e:
                raise CheckFailed(f"{method}: the DevTools connection failed: {e}") from None
            if message.get("id") == self.next_id:
                if "error" in message:
                    raise CheckFailed(f"{method}: {message['error']}")
                return message.get("result", {})
            if message.get("method") == "Runtime.consoleAPICalled":
                args = message["params"].get("args", [])
                text = " ".join(str(a.get("value", a.get("description", ""))) for a in args)
                self.console.append(f"console.{message['params'].get('type')}: {text}")
            elif message.get("method") == "Runtime.exceptionThrown":
                details = message["params"]["exceptionDetails"]
                text = details.get("exception", {}).get("description", details.get("text"))
                self.console.append(f"exception: {text}")

    def evaluate(self, expression, await_promise=False):
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True,
                           awaitPromise=await_promise)
        if "exceptionDetails" in result:
            raise CheckFailed(f"page script failed: {result['exceptionDetails']}")
        return result["result"].get("value")

    def state(self):
        return self.evaluate("JSON.stringify(Object.assign({title: document.title}, "
                             "document.body ? document.body.dataset : {}))") or "{}"

    def screenshot(self, path):
        data = self.call("Page.captureScreenshot", format="png")["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))

    def close(self):
        try:
            self.socket.close()
        except Exception:
            pass
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self.log.close()
        shutil.rmtree(self.profile, ignore_errors=True)


def waitFor(browser, what, done, timeout):
    """Polls the page's state until done(state) is true; fails on an error or the time limit."""
    deadline = time.monotonic() + timeout
    state = {}
    while time.monotonic() < deadline:
        state = json.loads(browser.state())
        if state.get("state") == "error" or state.get("error"):
            raise CheckFailed(f"the page reports an error while {what}: {state.get('error')}")
        if done(state):
            return state
        time.sleep(POLL_SECONDS)
    raise CheckFailed(f"timed out after {timeout} s while {what}; last state: {state}")


def drawn(state, min_frames, after_frames=0):
    return (state.get("state") == "ready" and int(state.get("frames", 0)) >= after_frames + min_frames
            and int(state.get("drawCalls", 0)) > 0 and float(state.get("covered", -1)) >= 0)


def checkDrawing(state, label):
    covered = float(state["covered"])
    if int(state["drawCalls"]) <= 0 or int(state["visible"]) <= 0:
        raise CheckFailed(f"{label}: the page draws nothing: {state}")
    if covered < MIN_COVERED:
        raise CheckFailed(f"{label}: only {covered:.2%} of the frame is drawn on: {state}")


def summary(state):
    return (f"WebGL {state.get('webgl')}, {state.get('path')} path, {state.get('agents')} agents "
            f"({state.get('visible')} visible), {state.get('drawCalls')} draw calls, "
            f"{state.get('frames')} frames, shadows {state.get('shadows')}, "
            f"impostors {state.get('impostorAgents')} ({state.get('impostorReason')}), "
            f"frame {float(state.get('frameMs', 0)):.1f} ms "
            f"(callback {float(state.get('callbackMs', 0)):.1f} ms), {float(state.get('covered', 0)):.1%} "
            f"covered, {state.get('character')}; {state.get('renderer')}")


SWITCH_SCRIPT = """
(() => {
  const select = document.getElementById(%s);
  select.value = %s;
  select.dispatchEvent(new Event('change'));
  return true;
})()
"""

DROP_SCRIPT = """
(async () => {
  const response = await fetch(%(url)s);
  if (!response.ok) throw new Error('fetching the file to drop: ' + response.status);
  const file = new File([await response.blob()], %(name)s);
  const transfer = new DataTransfer();
  transfer.items.add(file);
  const stage = document.getElementById('stage');
  for (const type of ['dragenter', 'dragover', 'drop'])
    stage.dispatchEvent(new DragEvent(type, {dataTransfer: transfer, bubbles: true, cancelable: true}));
  return true;
})()
"""


def hold(browser, args, state):
    """Keeps the page drawing for --hold seconds (the frame-time window fills with steady frames)."""
    if args.hold <= 0:
        return state
    time.sleep(args.hold)
    return waitFor(browser, "holding", lambda s: True, args.timeout)


def withSuffix(path, suffix):
    return path[:-4] + suffix + ".png" if path.endswith(".png") else path + suffix + ".png"


def runPage(args, base_url, query, out, expect_webgl, expect_path, drops=()):
    browser = Browser(args.chromium, args.timeout)
    try:
        started = time.monotonic()
        browser.call("Page.navigate", url=f"{base_url}/index.html{query}")
        state = waitFor(browser, f"loading {query or 'the page'}",
                        lambda s: drawn(s, args.min_frames), args.timeout)
        ready_seconds = time.monotonic() - started
        state = hold(browser, args, state)
        checkDrawing(state, query or "default")
        if int(state["webgl"]) != expect_webgl or state["path"] != expect_path:
            raise CheckFailed(f"{query}: expected WebGL {expect_webgl} and the {expect_path} path, "
                              f"the page reports {summary(state)}")
        if state.get("shadows") not in ("map", "blob"):
            raise CheckFailed(f"{query}: the page starts with shadows "
                              f"'{state.get('shadows')}', not the tools' default (map, or blob "
                              f"without depth textures): {state.get('shadowReason')}")
        browser.screenshot(out)
        print(f"web-check: {query or '(default)'}: ready in {ready_seconds:.1f} s; {summary(state)}; "
              f"wrote {out}")
        if expect_webgl == 2 and not args.measure:
            # WebGL2 has every path: the path switch must reach each, and come back to auto.
            for path, value in (("merged", "merged"), ("per-character", "per-character"),
                                ("instanced", "auto")):
                frames_before = int(state["frames"])
                browser.evaluate(SWITCH_SCRIPT % (json.dumps("path"), json.dumps(value)))
                state = waitFor(browser, f"switching to the {path} path",
                                lambda s: s.get("path") == path and drawn(s, 3, frames_before),
                                args.timeout)
                checkDrawing(state, f"switched to {path}")
                print(f"web-check: switched to the {path} path: {state['drawCalls']} draw calls")
            # The shadows toggle: each mode drawn as asked (WebGL2 has depth textures, so the map
            # is a map), and the frame with the map differs from the one without shadows.
            for mode in ("off", "blob", "map"):
                frames_before = int(state["frames"])
                browser.evaluate(SWITCH_SCRIPT % (json.dumps("shadows"), json.dumps(mode)))
                state = waitFor(browser, f"switching the shadows to {mode}",
                                lambda s: s.get("shadows") == mode and drawn(s, 3, frames_before),
                                args.timeout)
                checkDrawing(state, f"shadows {mode}")
                print(f"web-check: shadows {mode}: {state.get('shadowReason')}")
                if mode == "map":
                    browser.screenshot(withSuffix(out, "-shadow-map"))
        for index, drop in enumerate([] if args.measure else drops):
            name = os.path.basename(drop)
            frames_before = int(json.loads(browser.state())["frames"])
            browser.evaluate(DROP_SCRIPT % {"url": json.dumps(f"{base_url}/drop/{name}"),
                                            "name": json.dumps(name)}, await_promise=True)

            def shown(s):
                if s.get("loadError"):
                    raise CheckFailed(f"dropping {name}: the page reports: {s['loadError']}")
                return (s.get("character") == name and not s.get("loading") and
                        drawn(s, args.min_frames, frames_before))

            state = waitFor(browser, f"showing the dropped {name}", shown, args.timeout)
            state = hold(browser, args, state)
            checkDrawing(state, f"dropped {name}")
            if int(state["webgl"]) != expect_webgl or state["path"] != expect_path:
                raise CheckFailed(f"dropped {name}: expected the {expect_path} path, the page "
                                  f"reports {summary(state)}")
            drop_out = withSuffix(out, "-drop" if index == 0 else f"-drop{index + 1}")
            browser.screenshot(drop_out)
            print(f"web-check: dropped {name}: {summary(state)}; wrote {drop_out}")
    except CheckFailed:
        for line in browser.console[-20:]:
            print(f"web-check: page {line}", file=sys.stderr)
        raise
    finally:
        browser.close()


def main():
    # A terminated check still closes its browser (the finally blocks run).
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("page_dir")
    parser.add_argument("out", help="screenshot of the WebGL2 page (PNG); the WebGL 1 one goes "
                                    "to OUT-webgl1.png, those after a drop to OUT-drop.png and "
                                    "OUT-webgl1-drop.png")
    parser.add_argument("--chromium", default=shutil.which("chromium") or "chromium")
    parser.add_argument("--timeout", type=float, default=180.0,
                        help="seconds a page gets to become ready and draw")
    parser.add_argument("--min-frames", type=int, default=10,
                        help="frames the page must report before it counts as drawing")
    parser.add_argument("--agents", type=int, default=64)
    parser.add_argument("--hold", type=float, default=0.0,
                        help="seconds to keep drawing before reading the frame time")
    parser.add_argument("--drop", action="append", default=[],
                        help="a .glb, .gltf or .throng file to drop on each page (repeatable: "
                             "dropped in turn, each joining the crowd)")
    parser.add_argument("--package", help="a .throng (or .glb) the pages show instead of the "
                                          "built-in character (?package=)")
    parser.add_argument("--measure", action="store_true",
                        help="only load each page and report its frame time (no path switch, "
                             "no drop)")
    args = parser.parse_args()

    page_dir = os.path.abspath(args.page_dir)
    if not os.path.exists(os.path.join(page_dir, "index.html")):
        print(f"web-check: no page in {page_dir}", file=sys.stderr)
        return 1
    # The page folder is served as is; a file to drop is served beside it under /drop/.
    root = tempfile.mkdtemp(prefix="throng-web-check-")
    try:
        for name in os.listdir(page_dir):
            os.symlink(os.path.join(page_dir, name), os.path.join(root, name))
        os.mkdir(os.path.join(root, "drop"))
        for extra in (*args.drop, args.package):
            if extra:
                os.symlink(os.path.abspath(extra), os.path.join(root, "drop", os.path.basename(extra)))
        server = serve(root)
        base_url = f"http://127.0.0.1:{server.server_address[1]}"
        out = os.path.abspath(args.out)
        query = f"?agents={args.agents}"
        if args.package:
            query += f"&package=drop/{os.path.basename(args.package)}"
        try:
            runPage(args, base_url, query, out, 2, "instanced", args.drop)
            runPage(args, base_url, query + "&webgl=1", withSuffix(out, "-webgl1"), 1, "merged",
                    args.drop)
        finally:
            server.shutdown()
    except CheckFailed as failure:
        print(f"web-check: FAILED: {failure}", file=sys.stderr)
        return 1
    finally:
        shutil.rmtree(root, ignore_errors=True)
    print("web-check: passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
