/// The page at `/`: the sample app of MediaPipe's image classifier guide in a browser. Three
/// screens: Live (the camera's frames classified as fast as the server answers, newest frame
/// wins, results over the video with the inference time and frames per second), Gallery
/// (photos and videos in the order chosen; a video's top category over time as the HTML
/// report's timeline) and Settings (model, max results, score threshold, display-names locale,
/// token, the model's metadata). Self-contained: no external script, style, font or request; the token lives in
/// `sessionStorage` only. Markup here; style and scripts in `WebPageStyle` and `WebPageScript*`.
enum WebPage {
    /// The whole document.
    static let html =
        """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>vision-tasks serve</title><link rel="icon" href="data:,">
        <style>\(WebPageStyle.css)</style></head><body>
        \(body)
        <script>\(WebPageScript.core)\(WebPageScript.results)\(WebPageScript.live)\(WebPageScript.gallery)\(WebPageScript.settings)</script>
        </body></html>
        """

    private static let body = """
        <header><h1>vision-tasks</h1>
        <nav role="tablist" aria-label="Screens">
        <button role="tab" id="tab-live" aria-controls="live" aria-selected="true">Live</button>
        <button role="tab" id="tab-gallery" aria-controls="gallery" aria-selected="false" tabindex="-1">Gallery</button>
        <button role="tab" id="tab-settings" aria-controls="settings" aria-selected="false" tabindex="-1">Settings</button>
        </nav></header>
        <p id="notice" class="notice" role="alert" hidden></p>
        <main>
        <section id="live" role="tabpanel" aria-labelledby="tab-live">
        <div class="stage"><video id="video" muted playsinline></video>
        <div id="overlay" class="overlay" aria-live="polite"></div></div>
        <p class="stats"><span id="live-model"></span> · <span id="live-time">– ms inference</span> · \
        <span id="live-fps">– frames/s</span></p>
        <p><button id="live-toggle" type="button">Pause</button></p>
        <p id="live-message" class="message" role="status"></p>
        <p><button id="live-retry" type="button" hidden>Try again</button></p>
        </section>
        <section id="gallery" role="tabpanel" aria-labelledby="tab-gallery" hidden>
        <label id="drop" class="drop">Choose or drop photos and videos
        <input id="files" type="file" accept="image/*,video/*" multiple></label>
        <p id="gallery-message" class="message" role="status"></p>
        <p><button id="gallery-clear" type="button" hidden>Clear</button></p>
        <div id="results"></div>
        </section>
        <section id="settings" role="tabpanel" aria-labelledby="tab-settings" hidden>
        <form id="settings-form" class="settings">
        <label>Model <select id="model"></select></label>
        <button id="details-toggle" type="button" aria-expanded="false" aria-controls="details">Model details</button>
        <dl id="details" class="details" hidden></dl>
        <label>Max results <input id="max-results" type="number" min="1" max="50" value="3"></label>
        <label>Score threshold <input id="threshold" type="number" min="0" max="1" step="0.05" value="0"></label>
        <label id="locale-row" hidden>Display names <select id="locale"></select></label>
        <label>Access token <input id="token" type="password" autocomplete="off" \
        placeholder="only if the server needs one"></label>
        <p class="hint">The token is kept for this browser tab only.</p>
        </form>
        </section>
        </main>
        """
}
