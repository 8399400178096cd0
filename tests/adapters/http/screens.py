"""Screenshots of the approvals pages that never flake: fixed pages, a fixed viewport, and a
comparison with the reference image that is strict about layout and loose about pixels.

The pages are the server's own HTML (``cards.pending``, ``render.history``) for fixed
requests at a fixed time, served with the real stylesheet from a loopback server; no script
runs (the page answers without one, and the live clock would change the time left between
two runs). The viewport is set through the DevTools protocol (390x844 is a phone's CSS
pixels at a device scale of 1), so the screenshot is exactly the visible part of the page.

The comparison runs in the browser (it decodes PNG; no imaging package needed): the two
images must have the same size, and, per 8x8 block, the mean colour difference stays small
in all but a few blocks. Antialiasing and font hinting move single pixels, which averages
out in a block; a moved or missing element changes whole rows of blocks. Where the layout
is meant to change, ``BASTION_UPDATE_SCREENSHOTS=1`` writes new references instead.
"""

from __future__ import annotations

import base64
import os
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from pathlib import Path
from typing import Any

REFERENCES = Path(__file__).parent / "screenshots"
UPDATE = os.environ.get("BASTION_UPDATE_SCREENSHOTS") == "1"
#: A block whose mean difference (0-255 per channel) is above this counts as changed.
BLOCK_CHANGED = 40
#: At most this share of blocks may change (text re-rasterised, a glyph a pixel wider).
MAX_CHANGED_SHARE = 0.02


@contextmanager
def serve_pages(pages: Mapping[str, str]) -> Iterator[str]:
    """Serve ``path -> HTML`` and ``/static/app.css`` on a loopback port; the base URL."""
    css = resources.files("bastion.adapters.http").joinpath("static", "app.css").read_bytes()

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            if self.path == "/static/app.css":
                body, kind = css, "text/css"
            elif self.path in pages:
                body, kind = pages[self.path].encode(), "text/html; charset=utf-8"
            else:
                self.send_error(404)
                return
            self.send_response(200)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def set_viewport(driver: Any, width: int, height: int) -> None:
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600},
    )


def box(driver: Any, selector: str) -> dict[str, float]:
    """The first element's box in the viewport (CSS pixels)."""
    found = driver.execute_script(
        "const e = document.querySelector(arguments[0]); if (!e) return null;"
        "const r = e.getBoundingClientRect();"
        "return {left: r.left, top: r.top, right: r.right, bottom: r.bottom};",
        selector,
    )
    assert found is not None, f"nothing on the page matches {selector!r}"
    return dict(found)


def outside(driver: Any, selectors: list[str], width: int, height: int) -> dict[str, dict[str, float]]:
    """The elements (of ``selectors``) not wholly inside the viewport: {} when all are."""
    boxes = {s: box(driver, s) for s in selectors}
    return {
        s: b
        for s, b in boxes.items()
        if b["left"] < 0 or b["top"] < 0 or b["right"] > width or b["bottom"] > height
    }


_COMPARE = """
const [a, b, block, done] = arguments;
function load(src) {
  return new Promise(function (ok, fail) {
    const image = new Image(); image.onload = function () { ok(image); }; image.onerror = fail;
    image.src = src;
  });
}
function pixels(image) {
  const canvas = document.createElement("canvas");
  canvas.width = image.width; canvas.height = image.height;
  const g = canvas.getContext("2d"); g.drawImage(image, 0, 0);
  return g.getImageData(0, 0, image.width, image.height).data;
}
Promise.all([load(a), load(b)]).then(function (both) {
  const x = both[0], y = both[1];
  if (x.width !== y.width || x.height !== y.height) {
    done({size: [x.width, x.height, y.width, y.height]}); return;
  }
  const p = pixels(x), q = pixels(y), w = x.width, h = x.height;
  const means = [];
  for (let by = 0; by < h; by += block) for (let bx = 0; bx < w; bx += block) {
    let sum = 0, n = 0;
    for (let yy = by; yy < Math.min(by + block, h); yy++) for (let xx = bx; xx < Math.min(bx + block, w); xx++) {
      const i = (yy * w + xx) * 4;
      sum += Math.abs(p[i] - q[i]) + Math.abs(p[i + 1] - q[i + 1]) + Math.abs(p[i + 2] - q[i + 2]);
      n += 3;
    }
    means.push(sum / n);
  }
  done({size: null, means: means});
}).catch(function (e) { done({error: String(e)}); });
"""


def changed_share(driver: Any, png: bytes, reference: bytes) -> float:
    """The share of 8x8 blocks that differ between two PNGs of the same size (1.0: the sizes
    differ)."""
    urls = ["data:image/png;base64," + base64.b64encode(data).decode() for data in (png, reference)]
    driver.get("about:blank")
    result = driver.execute_async_script(_COMPARE, urls[0], urls[1], 8)
    assert "error" not in result, result
    if result["size"] is not None:
        return 1.0
    means = result["means"]
    return sum(1 for m in means if m > BLOCK_CHANGED) / len(means)


def matches_reference(driver: Any, name: str, png: bytes, out: Path) -> tuple[float, str]:
    """Compare ``png`` with ``screenshots/NAME.png`` (writing it under the update flag); the
    changed share and where the new screenshot was kept for a person to look at."""
    reference = REFERENCES / f"{name}.png"
    kept = out / f"{name}.png"
    kept.write_bytes(png)
    if UPDATE or not reference.exists():
        if not UPDATE:
            raise AssertionError(f"no reference {reference}: run with BASTION_UPDATE_SCREENSHOTS=1")
        REFERENCES.mkdir(exist_ok=True)
        reference.write_bytes(png)
        return 0.0, str(kept)
    return changed_share(driver, png, reference.read_bytes()), str(kept)
