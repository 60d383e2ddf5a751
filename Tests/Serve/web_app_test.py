"""The web app of `vision-tasks serve` in headless Chromium (Debian's chromium + chromium-driver)
driven by Selenium, against servers this script starts on free loopback ports and stops.

- Live: a fake camera plays a y4m clip (burger, then sparrow; made here by ffmpeg): the label
  over the video goes from cheeseburger to a bird class with no reload, the frames per second
  and the inference time are shown, and the server's metrics never show more than one request
  in flight or any waiting for the model (newest frame wins, no queue), and no camera frame is
  sent twice (captures wait for a new frame).
- Gallery: two photos, an unreadable "photo" and a video, in that order: cards in that order,
  cheeseburger first, the unreadable one in words, the video's timeline with both spans; then
  "nothing above the threshold" at a threshold of 1; with an embedder, each photo names the most
  similar of the others; Clear removes the cards and revokes their object URLs.
- No camera, no token and a wrong token: the words shown; "Try again" asks for the camera again.
- Layout: screenshots of the three screens at 1280 and 390 px; at 390 px every control is at
  least 44 px tall and no element is wider than the viewport. No request goes anywhere but the server; the token is in sessionStorage only.

usage: web_app_test.py VISION_TASKS MODEL EMBEDDER IMAGES ARTIFACTS
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import urllib.request
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

TOOL, MODEL, EMBEDDER = sys.argv[1], sys.argv[2], sys.argv[3]
IMAGES, ARTIFACTS = Path(sys.argv[4]), Path(sys.argv[5])
ARTIFACTS.mkdir(parents=True, exist_ok=True)
WORK = Path(tempfile.mkdtemp(prefix="web-app-test-"))
# ImageNet's bird classes (indices of the 1000 classes; the labels file has "background" at 0,
# so these are +1): the sparrow photo must land in one of them.
BIRDS = set(range(8, 26)) | set(range(81, 102)) | set(range(128, 148))
TIMEOUT = 120  # a safety net on a loaded machine; every wait ends as soon as its condition holds


def ffmpeg(*arguments):
    subprocess.run(["ffmpeg", "-v", "error", "-y", *arguments], check=True)


def clip(path, first_seconds, second_seconds, extra):
    """burger.jpg for first_seconds, then sparrow.jpg for second_seconds, 320x240 at 10 fps."""
    graph = ("[0:v]scale=320:240,setsar=1,fps=10[a];[1:v]scale=320:240,setsar=1,fps=10[b];"
             "[a][b]concat=n=2:v=1[v]")
    ffmpeg("-loop", "1", "-t", str(first_seconds), "-i", str(IMAGES / "burger.jpg"),
           "-loop", "1", "-t", str(second_seconds), "-i", str(IMAGES / "sparrow.jpg"),
           "-filter_complex", graph, "-map", "[v]", *extra, str(path))
    return path


class Server:
    """`vision-tasks serve --port 0`; the port is read from its "listening on" line."""

    def __init__(self, *extra):
        self.process = subprocess.Popen(
            [TOOL, "serve", "--port", "0", "--model", "mobilenet=" + MODEL, *extra],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        for line in self.process.stderr:
            found = re.search(r"listening on (http://127\.0\.0\.1:\d+)", line)
            if found:
                self.url = found.group(1)
                break
        else:
            raise SystemExit("the server did not start: " + str(self.process.wait()))
        # Keep draining the access log so the server never blocks on a full pipe.
        threading.Thread(target=lambda: [None for _ in self.process.stderr], daemon=True).start()

    def metrics(self):
        with urllib.request.urlopen(self.url + "/metrics", timeout=30) as response:
            text = response.read().decode()
        values = {}
        for line in text.splitlines():
            if line and not line.startswith("#"):
                name, value = line.rsplit(" ", 1)
                values[name] = float(value)
        return values

    def stop(self):
        self.process.terminate()
        assert self.process.wait(timeout=60) == 0, "the server did not exit cleanly"


def browser(*flags):
    options = webdriver.ChromeOptions()
    options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--window-size=1280,900", *flags):
        options.add_argument(flag)
    service = Service(os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver"))
    return webdriver.Chrome(service=service, options=options)


def wait(driver, condition, what):
    try:
        return WebDriverWait(driver, TIMEOUT, poll_frequency=0.1).until(lambda d: condition(d))
    except Exception:
        raise AssertionError("timed out waiting for " + what) from None


def text(driver, element_id):
    return driver.find_element(By.ID, element_id).text


def width(driver, pixels):
    """Lays the page out at `pixels` CSS pixels wide, as a phone (390) or a desktop (1280)."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": pixels, "height": 844 if pixels < 600 else 900,
                            "deviceScaleFactor": 1, "mobile": pixels < 600})


OVERFLOW = """
const limit = document.documentElement.clientWidth;
const wide = [...document.querySelectorAll("body *")].filter((e) => {
  const box = e.getBoundingClientRect();
  return box.width > 0 && (box.right > limit + 0.5 || box.left < -0.5);
}).map((e) => e.tagName + (e.id ? "#" + e.id : "") + "." + e.className + " " + Math.round(e.getBoundingClientRect().right));
return [limit, document.documentElement.scrollWidth, wide];
"""


# The visible controls (tabs, buttons, fields, pickers) shorter than 44 CSS pixels.
SMALL_CONTROLS = """
return [...document.querySelectorAll("button, select, input:not([type=file])")].filter((e) => {
  const box = e.getBoundingClientRect();
  return box.width > 0 && box.height < 43.5;
}).map((e) => e.tagName + (e.id ? "#" + e.id : "") + " " + Math.round(e.getBoundingClientRect().height) + " px");
"""


def screens(driver, name):
    """Screenshots of the screen shown at 1280 and 390 px; fails when anything is wider than 390."""
    for pixels in (1280, 390):
        width(driver, pixels)
        limit, scroll, wide = driver.execute_script(OVERFLOW)
        if pixels == 390:
            assert limit == 390 and scroll <= limit and not wide, f"{name} at 390 px: wider elements {wide}, scroll {scroll}"
            small = driver.execute_script(SMALL_CONTROLS)
            assert not small, f"{name} at 390 px: controls under 44 px tall (Apple's and the WCAG's target size): {small}"
        path = ARTIFACTS / f"web-app-{name}-{pixels}.png"
        driver.save_screenshot(str(path))
        print(f"screenshot {path}")
    width(driver, 1280)


def show(driver, screen):
    driver.find_element(By.ID, "tab-" + screen).click()
    wait(driver, lambda d: d.find_element(By.ID, screen).is_displayed(), screen + " shown")


def only_the_server(driver):
    """No request but to the server itself, no external script or style, no token outside sessionStorage."""
    others = driver.execute_script(
        "return performance.getEntriesByType('resource').map((e) => e.name)"
        ".filter((n) => !n.startsWith(location.origin) && !n.startsWith('data:') && !n.startsWith('blob:'))")
    assert not others, f"requests to other hosts: {others}"
    external = driver.execute_script(
        "return [...document.querySelectorAll('script[src],link[href]')].map((e) => e.src || e.href)"
        ".filter((u) => !u.startsWith('data:'))")
    assert not external, f"external scripts or styles: {external}"
    assert driver.execute_script("return localStorage.length") == 0, "localStorage was written"


def live_and_gallery(server, fake_camera):
    driver = browser("--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream",
                     "--use-file-for-fake-video-capture=" + str(fake_camera))
    try:
        driver.get(server.url + "/")
        overlay = driver.find_element(By.ID, "overlay")
        # Live: cheeseburger, then a bird, same page; the server never queues. Every label the
        # overlay shows is recorded by the page as it changes (a label shown between two polls
        # of a loaded machine is not missed), and the waits read that record.
        driver.execute_script("""
          window.liveSeen = [];
          const overlay = document.getElementById('overlay');
          new MutationObserver(() => window.liveSeen.push([overlay.dataset.top || '', overlay.dataset.index || '']))
            .observe(overlay, {attributes: true, attributeFilter: ['data-top', 'data-index']});
        """)
        samples = []

        def seen(d):
            samples.append(server.metrics())
            return d.execute_script("return window.liveSeen")

        def burger_then_bird(d):
            labels = seen(d)
            first = next((i for i, (top, _) in enumerate(labels) if top == "cheeseburger"), None)
            birds = [top for top, index in labels[first or 0:] if index.isdigit() and int(index) in BIRDS]
            return first is not None and birds and birds[0]

        wait(driver, lambda d: any(top == "cheeseburger" for top, _ in seen(d)), "the live label cheeseburger")
        print("live: cheeseburger")
        bird = wait(driver, burger_then_bird, "a bird class as the live label after cheeseburger")
        print(f"live: then {bird} without reload")
        assert driver.execute_script("return performance.getEntriesByType('navigation').length") == 1
        fps, inference = text(driver, "live-fps"), text(driver, "live-time")
        assert re.fullmatch(r"\d+\.\d frames/s", fps), fps
        assert re.fullmatch(r"\d+\.\d ms inference", inference), inference
        print(f"live: {fps}, {inference}")
        stats = driver.execute_script("return live.stats")
        assert stats["captures"] > 0 and stats["repeats"] == 0, f"frames sent twice: {stats}"
        print(f"live: {stats['captures']} frames captured, each a new camera frame (0 sent twice)")
        in_flight = max(s["vision_tasks_requests_in_flight"] for s in samples)
        waiting = max(s['vision_tasks_queue_waiting{model="mobilenet"}'] for s in samples)
        answered = samples[-1]['vision_tasks_requests_total{route="classify",status="200"}']
        assert in_flight <= 1 and waiting == 0, f"queue: in flight {in_flight}, waiting {waiting}"
        print(f"live: metrics over {len(samples)} samples: at most {in_flight:.0f} in flight, {waiting:.0f} waiting, "
              f"{answered:.0f} frames answered")
        screens(driver, "live")

        # Keyboard: the arrow keys move between the tabs.
        driver.find_element(By.ID, "tab-live").send_keys(Keys.ARROW_RIGHT)
        wait(driver, lambda d: d.find_element(By.ID, "gallery").is_displayed(), "the gallery after ArrowRight")
        assert driver.switch_to.active_element.get_attribute("id") == "tab-gallery"

        gallery(driver, server)
        settings(driver)
        only_the_server(driver)
    finally:
        driver.quit()


def gallery(driver, server):
    unreadable = WORK / "notes.jpg"
    unreadable.write_text("# not a photo\n")
    video = clip(WORK / "clip.mp4", 1.5, 1.5, ["-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p"])
    files = [IMAGES / "burger.jpg", IMAGES / "sparrow.jpg", unreadable, video]
    # Every progress text the video's card shows (percentages left out), as the page changes it.
    driver.execute_script("""
      window.progressSeen = [];
      new MutationObserver(() => {
        for (const p of document.querySelectorAll(".progress-text")) {
          const text = p.textContent.replace(/ \\d+%$/, "");
          if (!window.progressSeen.includes(text)) window.progressSeen.push(text);
        }
      }).observe(document.getElementById("results"), { subtree: true, childList: true, characterData: true });""")
    driver.find_element(By.ID, "files").send_keys("\n".join(str(f.resolve()) for f in files))
    cards = driver.find_elements(By.CSS_SELECTOR, "#results .card")
    assert [c.find_element(By.TAG_NAME, "h2").text for c in cards] == [f.name for f in files]
    wait(driver, lambda d: cards[3].find_elements(By.CSS_SELECTOR, ".timeline-plot, .error"), "the video's timeline")
    first = cards[0].find_element(By.CSS_SELECTOR, ".bar .name").text
    assert first == "cheeseburger", first
    meta = cards[0].find_element(By.CLASS_NAME, "meta").text
    assert re.fullmatch(r"Model mobilenet · \d+\.\d ms inference", meta), meta
    words = cards[2].find_element(By.CLASS_NAME, "error").text
    assert words == "\u201cnotes.jpg\u201d could not be read as a photo. Use a JPEG, PNG or WebP file.", words
    spans = [r.get_attribute("data-category") for r in cards[3].find_elements(By.CSS_SELECTOR, "rect.span")]
    assert spans[0] == "cheeseburger" and len(spans) >= 2 and spans[-1] != "cheeseburger", spans
    video_meta = cards[3].find_element(By.CLASS_NAME, "meta").text
    assert re.fullmatch(r"Model mobilenet · \d+\.\d ms inference", video_meta), video_meta
    progress = driver.execute_script("return window.progressSeen")
    assert progress == ["Uploading\u2026", "Classifying\u2026"], progress
    print(f"gallery: cards in order, {first} first, unreadable photo: {words}; video spans {spans}")
    print(f"gallery: video progress shown: {progress}")
    screens(driver, "gallery")

    show(driver, "settings")
    threshold = driver.find_element(By.ID, "threshold")
    threshold.clear()
    threshold.send_keys("1")
    show(driver, "gallery")
    driver.find_element(By.ID, "files").send_keys(str((IMAGES / "sparrow.jpg").resolve()))
    last = driver.find_elements(By.CSS_SELECTOR, "#results .card")[-1]
    none = wait(driver, lambda d: last.find_elements(By.CLASS_NAME, "none"), "the threshold message")[0].text
    assert none == "Nothing scored at or above the threshold of 100.0%.", none
    print(f"gallery: {none}")

    # An embedder (MediaPipe's, served as "embedder"): the burger's nearest is its crop.
    show(driver, "settings")
    Select(driver.find_element(By.ID, "model")).select_by_value("embedder")
    show(driver, "gallery")
    before = len(driver.find_elements(By.CSS_SELECTOR, "#results .card"))
    photos = [IMAGES / "burger.jpg", IMAGES / "sparrow.jpg", IMAGES / "burger_crop.jpg"]
    driver.find_element(By.ID, "files").send_keys("\n".join(str(p.resolve()) for p in photos))
    cards = driver.find_elements(By.CSS_SELECTOR, "#results .card")[before:]
    similar = wait(driver, lambda d: cards[0].find_elements(By.CLASS_NAME, "similar"), "the most similar photo")[0].text
    assert similar.startswith("Most similar among these photos: burger_crop.jpg (cosine similarity 0."), similar
    failed = [c.text for c in cards if c.find_elements(By.CLASS_NAME, "error")]
    assert not failed, f"an embedder's card failed: {failed}"
    print(f"gallery: embedder: burger.jpg: {similar}")
    # Clear: the cards go, and their media's object URLs are revoked (a fetch of one fails).
    url = cards[0].find_element(By.TAG_NAME, "img").get_attribute("src")
    assert url.startswith("blob:"), url
    driver.find_element(By.ID, "gallery-clear").click()
    wait(driver, lambda d: not d.find_elements(By.CSS_SELECTOR, "#results .card"), "the cards to be cleared")
    revoked = driver.execute_async_script(
        "const done = arguments[arguments.length - 1]; fetch(arguments[0]).then(() => done(false), () => done(true));", url)
    assert revoked, f"{url} was not revoked"
    assert not driver.find_element(By.ID, "gallery-clear").is_displayed()
    print("gallery: Clear removed every card and revoked their object URLs")
    show(driver, "settings")
    Select(driver.find_element(By.ID, "model")).select_by_value("mobilenet")


def settings(driver):
    show(driver, "settings")
    driver.find_element(By.ID, "details-toggle").click()
    details = wait(driver, lambda d: d.find_element(By.ID, "details").is_displayed() and d.find_element(By.ID, "details"),
                   "the model details")
    for line in ("Inputs\ninput UINT8 [1, 224, 224, 3]", "Head 0 (probability)\n1001 categories, 1001 labels",
                 "Display names served\nen"):
        assert line in details.text, details.text
    # The model's labels have no locales: no display-names picker.
    assert not driver.find_element(By.ID, "locale-row").is_displayed()
    print("settings: model details " + details.text.replace("\n", " "))
    screens(driver, "settings")


def no_camera_and_tokens(server):
    # Chromium grants the camera (fake UI) but has no device: the page says so in words.
    driver = browser("--use-fake-ui-for-media-stream")
    try:
        driver.get(server.url + "/")
        message = wait(driver, lambda d: text(d, "live-message"), "the no-camera message")
        assert message == "No camera was found. You can still classify photos and videos in the Gallery.", message
        print(f"no camera: {message}")
        # "Try again" asks for the camera again (here it is still missing, and says so again).
        driver.execute_script("""
          window.cameraAsks = 0;
          const ask = navigator.mediaDevices.getUserMedia.bind(navigator.mediaDevices);
          navigator.mediaDevices.getUserMedia = (c) => { window.cameraAsks += 1; return ask(c); };
        """)
        retry = driver.find_element(By.ID, "live-retry")
        assert retry.is_displayed() and retry.size["height"] >= 43.5, retry.size
        retry.click()
        wait(driver, lambda d: d.execute_script("return window.cameraAsks") == 1, "Try again to ask for the camera")
        wait(driver, lambda d: text(d, "live-message") == message, "the no-camera message again")
        print("no camera: Try again asks for the camera again")
        notice = wait(driver, lambda d: text(d, "notice"), "the token notice")
        assert notice == "This server needs an access token. Enter it under Settings.", notice
        print(f"no token: {notice}")
        show(driver, "settings")
        token = driver.find_element(By.ID, "token")
        token.send_keys("wrong-token", Keys.TAB)
        wait(driver, lambda d: text(d, "notice") == "The access token was refused. Check it under Settings.",
             "the wrong-token notice")
        print("wrong token: " + text(driver, "notice"))
        token.clear()
        token.send_keys("s3cret-token", Keys.TAB)
        wait(driver, lambda d: not d.find_element(By.ID, "notice").is_displayed(), "the notice to go with the right token")
        assert driver.execute_script("return sessionStorage.getItem('vision-tasks-token')") == "s3cret-token"
        only_the_server(driver)
        print("right token: models loaded; the token is in sessionStorage only")
    finally:
        driver.quit()


fake_camera = clip(WORK / "camera.y4m", 2, 3, ["-pix_fmt", "yuv420p"])
token_file = WORK / "token"
token_file.write_text("s3cret-token\n")
servers = [Server("--model", "embedder=" + EMBEDDER), Server("--token-file", str(token_file))]
try:
    live_and_gallery(servers[0], fake_camera)
    no_camera_and_tokens(servers[1])
finally:
    for server in servers:
        server.stop()
    shutil.rmtree(WORK, ignore_errors=True)
print("web app: ok")
