# webdriver.py - drive headless Chromium through chromedriver's W3C
# WebDriver HTTP protocol, with nothing but the standard library; the
# tests that look at what sonde draws (tests/run/flamegraph_svg.sh)
# import it.
#
#   with Browser(tmpdir) as b:
#       b.open("file:///tmp/x.svg")
#       n = b.js("return document.querySelectorAll('rect').length")
#       b.click(b.js("return document.querySelector('g.f')"))
#       b.screenshot("/tmp/x.png")
#
# chromedriver listens on a free port of 127.0.0.1 and starts
# chromium itself, headless, with a fresh profile in TMPDIR and
# everything that would reach the network switched off.  Browser()
# raises Missing when either program is not installed.
import base64
import json
import os
import shutil
import socket
import subprocess
import time
import urllib.error
import urllib.request

ELEMENT = "element-6066-11e4-a52e-4f735466cecf"
CHROME_ARGS = ["--headless", "--no-sandbox", "--disable-gpu",
               "--disable-quic", "--no-first-run",
               "--disable-background-networking",
               "--disable-component-update", "--disable-sync",
               "--disable-dev-shm-usage", "--window-size=1280,900"]


class Missing(Exception):
    pass


class Error(Exception):
    pass


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Browser:
    def __init__(self, tmpdir, timeout=30):
        self.driver = shutil.which("chromedriver")
        self.chrome = shutil.which("chromium") or shutil.which("chromium-browser")
        if not self.driver or not self.chrome:
            raise Missing("chromium and chromedriver are not installed "
                          "(Debian: apt-get install chromium chromium-driver)")
        self.tmpdir = tmpdir
        self.timeout = timeout
        self.proc = None
        self.session = None

    def __enter__(self):
        port = free_port()
        self.base = "http://127.0.0.1:%d" % port
        self.log = open(os.path.join(self.tmpdir, "chromedriver.log"), "w")
        self.proc = subprocess.Popen([self.driver, "--port=%d" % port],
                                     stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.time() + self.timeout
        while True:
            try:
                if self.call("GET", "/status").get("ready"):
                    break
            except (OSError, Error):
                pass
            if time.time() > deadline or self.proc.poll() is not None:
                self.close()
                raise Error("chromedriver did not start; see " + self.log.name)
            time.sleep(0.1)
        caps = {"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": self.chrome,
                "args": CHROME_ARGS + ["--user-data-dir=" +
                                       os.path.join(self.tmpdir, "profile")],
            }}}}
        try:
            self.session = self.call("POST", "/session", caps)["sessionId"]
        except Exception:
            self.close()
            raise
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        if self.session:
            try:
                self.call("DELETE", "/session/" + self.session)
            except Exception:
                pass
            self.session = None
        if self.proc:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
            self.proc = None
            self.log.close()

    # One WebDriver command: the "value" of its answer.
    def call(self, method, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=self.timeout) as r:
                answer = json.load(r)
        except urllib.error.HTTPError as e:
            answer = json.load(e)
            raise Error("%s %s: %s" % (method, path, answer.get("value")))
        return answer.get("value")

    def cmd(self, method, path, body=None):
        return self.call(method, "/session/%s%s" % (self.session, path), body)

    def open(self, url):
        self.cmd("POST", "/url", {"url": url})

    # Run SCRIPT (a function body) in the page; elements come back as
    # references that click() takes.
    def js(self, script, *args):
        return self.cmd("POST", "/execute/sync", {"script": script, "args": list(args)})

    def click(self, element):
        self.cmd("POST", "/element/%s/click" % element[ELEMENT], {})

    # Move the mouse onto the middle of ELEMENT.
    def hover(self, element):
        self.cmd("POST", "/actions", {"actions": [{
            "type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"},
            "actions": [{"type": "pointerMove", "duration": 0,
                         "origin": {ELEMENT: element[ELEMENT]}, "x": 0, "y": 0}]}]})

    # Answer the page's window.prompt() with TEXT.
    def answer_prompt(self, text):
        self.cmd("POST", "/alert/text", {"text": text})
        self.cmd("POST", "/alert/accept", {})

    def screenshot(self, path):
        with open(path, "wb") as f:
            f.write(base64.b64decode(self.cmd("GET", "/screenshot")))
