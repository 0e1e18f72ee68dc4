"""Headless Chromium (Debian's ``chromium`` and ``chromium-driver``) driven by Selenium, with
everything the page receives recorded: a script added before any page script wraps ``fetch`` and
keeps each response's method, URL, request body, status and body in ``window.__received`` (read
with ``received(driver)`` before a reload, which starts a new record); it wraps ``EventSource`` too,
and records each frame of a stream (method ``STREAM``, the frame's data as the body)."""

from __future__ import annotations

import json
import os
import shutil
from typing import Any

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

CHROMIUM = ("chromium", "chromium-browser", "google-chrome")
DRIVER = ("chromedriver",)

RECORD_FETCH = """
(() => {
  const seen = (window.__received = []);
  const original = window.fetch.bind(window);
  window.fetch = async (input, init = {}) => {
    const response = await original(input, init);
    const copy = response.clone();
    const entry = { method: init.method || "GET", url: String(input), request: init.body || null,
                    status: response.status, body: null };
    seen.push(entry);
    copy.text().then((text) => { entry.body = text; }, () => {});
    return response;
  };
  const OriginalEventSource = window.EventSource;
  window.EventSource = class extends OriginalEventSource {
    constructor(url, init) {
      super(url, init);
      const record = (e) =>
        seen.push({ method: "STREAM", url: String(url), request: null, status: 200, body: e.data });
      this.addEventListener("message", record);
      this.addEventListener("state", record);
    }
  };
})();
"""


def _which(names: tuple[str, ...], env: str) -> str | None:
    found = os.environ.get(env)
    if found:
        return found
    for name in names:
        path = shutil.which(name)
        if path:
            return path
    return None


def browser_paths() -> tuple[str, str] | None:
    """Chromium and its driver, or None when either is missing (``make browser-deps`` installs them)."""
    binary, driver = _which(CHROMIUM, "ARCANA_CHROMIUM"), _which(DRIVER, "ARCANA_CHROMEDRIVER")
    return (binary, driver) if binary and driver else None


def chrome(width: int = 1280, height: int = 900) -> webdriver.Chrome:
    paths = browser_paths()
    if paths is None:
        raise RuntimeError(
            "chromium and chromedriver are needed: make browser-deps (Debian: chromium chromium-driver)"
        )
    binary, driver_path = paths
    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for arg in (
        "--headless=new",
        "--no-sandbox",  # CI runs as root
        "--disable-dev-shm-usage",
        "--disable-gpu",
        "--disable-extensions",
        "--no-first-run",
        "--hide-scrollbars",
        # CPU the tests do not need (chromium was a tenth of the suite's CPU): no CSS animations (the
        # page honours reduced motion), no background fetches, updates, sync or sound.
        "--force-prefers-reduced-motion",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--mute-audio",
        "--force-device-scale-factor=1",
        f"--window-size={width},{height}",
    ):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service(executable_path=driver_path))
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": RECORD_FETCH})
    driver.set_window_size(width, height)
    return driver


def received(driver: webdriver.Chrome) -> list[dict[str, Any]]:
    """Every response the page received since it was loaded, with its JSON body decoded."""
    entries: list[dict[str, Any]] = driver.execute_script("return window.__received || []")
    for entry in entries:
        text = entry.get("body")
        try:
            entry["json"] = json.loads(text) if text else None
        except ValueError:
            entry["json"] = None
    return entries


def page_errors(driver: webdriver.Chrome) -> list[str]:
    """Uncaught errors the page logged (SEVERE console entries other than failed requests)."""
    return [
        e["message"]
        for e in driver.get_log("browser")
        if e["level"] == "SEVERE" and "Failed to load resource" not in e["message"]
    ]
