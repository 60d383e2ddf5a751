/// The page's scripts, in parts the page concatenates: `core` (requests, errors in words),
/// `results` (category bars, cards), then `live`, `gallery` and `settings` (one screen each,
/// in files of their own). Plain browser JavaScript, no library.
enum WebPageScript {
    /// Requests to the server (with the token), the settings as query arguments, and every
    /// error turned into words: the server's own text is never shown (it names API details).
    static let core = #"""
        "use strict";
        const $ = (id) => document.getElementById(id);
        const state = { models: [], limits: null, token: sessionStorage.getItem("vision-tasks-token") || "" };
        const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
        class ServerError extends Error {
          constructor(status, message) { super(message); this.status = status; }
        }
        function authorization(extra) {
          const headers = Object.assign({}, extra || {});
          if (state.token) headers.Authorization = "Bearer " + state.token;
          return headers;
        }
        async function call(path, init) {
          let response;
          try {
            response = await fetch(path, Object.assign({}, init, { headers: authorization(init && init.headers) }));
          } catch (error) { throw new ServerError(0, String(error)); }
          let body = null;
          try { body = await response.json(); } catch (error) { body = null; }
          if (!response.ok) throw new ServerError(response.status, (body && body.error) || "");
          return { body, response };
        }
        function notice(text) { $("notice").textContent = text || ""; $("notice").hidden = !text; }
        function currentModel() { return state.models.find((m) => m.name === $("model").value); }
        function modelPath(model, verb) { return "/v1/models/" + encodeURIComponent(model.name) + "/" + verb; }
        function threshold() { const t = parseFloat($("threshold").value); return t > 0 && t <= 1 ? t : 0; }
        // An embedder takes no classification options.
        function settingsQuery() {
          const query = new URLSearchParams();
          const model = currentModel();
          if (model && model.task === "embed") return query;
          const max = parseInt($("max-results").value, 10);
          if (max > 0) query.set("max_results", String(max));
          if (threshold() > 0) query.set("score_threshold", String(threshold()));
          if (!$("locale-row").hidden && $("locale").value) query.set("display_names_locale", $("locale").value);
          return query;
        }
        function quoted(name) { return "\u201c" + name + "\u201d"; }
        // what: { kind: "photo" | "video" | "frame" | "models" | "details", name }
        function words(error, what) {
          const subject = what.name ? quoted(what.name) : "This " + what.kind;
          switch (error.status) {
            case 0: return "The server cannot be reached. Is vision-tasks serve still running?";
            case 401: return state.token ? "The access token was refused. Check it under Settings."
              : "This server needs an access token. Enter it under Settings.";
            case 404: return "The server no longer has this model. Reload the page.";
            case 413: return subject + " is too large for this server.";
            case 422: return "The model gave scores that are not numbers for " + subject + ".";
            case 503: return "The server is busy. Try again in a moment.";
            case 400: return badRequestWords(error, what, subject);
            default: return "The server could not process " + subject + " (status " + error.status + ").";
          }
        }
        function badRequestWords(error, what, subject) {
          const longest = /at most (\d+) s/.exec(error.message);
          if (what.kind === "video" && longest) return subject + " is too long: videos of at most " + longest[1] + " seconds are classified.";
          if (what.kind === "video" && /only classifiers/.test(error.message)) return "Videos need a classifier model; choose one under Settings.";
          if (what.kind === "video") return subject + " could not be read as a video. Try an MP4 or WebM file.";
          if (what.kind === "photo") return subject + " could not be read as a photo. Use a JPEG, PNG or WebP file.";
          if (what.kind === "frame") return "The camera frame could not be classified.";
          return "The server refused the request for " + subject + ".";
        }
        function inferenceMilliseconds(serverTiming) {
          const match = /inference;dur=([0-9.]+)/.exec(serverTiming || "");
          return match ? parseFloat(match[1]) : null;
        }
        async function loadModels() {
          try {
            const { body } = await call("/v1/models");
            const previous = $("model").value;
            state.models = body.models;
            state.limits = body.videoLimits || null;
            $("model").replaceChildren(...body.models.map((m) => new Option(m.name + " (" + m.kind + ")", m.name)));
            if (state.models.some((m) => m.name === previous)) $("model").value = previous;
            notice("");
            modelChanged();
          } catch (error) { notice(words(error, { kind: "models", name: "" })); }
        }

        """#

    /// Category bars, "nothing above the threshold" and result cards.
    static let results = #"""
        function categoriesOf(record) {
          if (record.classifications) {
            const head = record.classifications[0] || { categories: [] };
            return head.categories.map((c) => ({ name: c.displayName || c.categoryName || ("#" + c.index), score: c.score, index: c.index }));
          }
          return (record.labels || []).map((l) => ({ name: l.text, score: l.confidence, index: l.index }));
        }
        function element(tag, className, text) {
          const node = document.createElement(tag);
          if (className) node.className = className;
          if (text !== undefined) node.textContent = text;
          return node;
        }
        function percent(score) { return (100 * score).toFixed(1) + "%"; }
        function noneText() {
          return threshold() > 0 ? "Nothing scored at or above the threshold of " + percent(threshold()) + "."
            : "The model gave no category for this image.";
        }
        function bars(categories) {
          const list = element("div", "bars");
          if (categories.length === 0) { list.append(element("p", "none", noneText())); return list; }
          for (const c of categories) {
            const bar = element("div", "bar");
            const track = element("span", "track");
            const fill = element("span", "fill");
            fill.style.width = Math.max(0, Math.min(100, 100 * c.score)).toFixed(1) + "%";
            track.append(fill);
            bar.append(element("span", "name", c.name), track, element("span", "score", percent(c.score)));
            list.append(bar);
          }
          return list;
        }
        function recordView(record) {
          if (record.embeddings) {
            const e = record.embeddings[0] || {};
            const values = e.floatEmbedding || e.quantizedEmbedding || [];
            return element("p", "embedding", "Embedding of " + values.length + " values.");
          }
          return bars(categoriesOf(record));
        }
        function metaText(model, milliseconds) {
          return "Model " + model.name + (milliseconds === null ? "" : " \u00b7 " + milliseconds.toFixed(1) + " ms inference");
        }
        // The object URLs of the cards' media, revoked when the gallery is cleared.
        const galleryURLs = [];
        // A card for a photo or video: the media, its name, a line for the model and time, then the results.
        function card(file, media) {
          const root = element("article", "card");
          const body = element("div", "body");
          const meta = element("p", "meta", "Waiting\u2026");
          const content = element("div", "content");
          media.src = URL.createObjectURL(file);
          galleryURLs.push(media.src);
          media.alt = file.name;
          media.onerror = () => media.replaceWith(element("div", "placeholder", "No preview"));
          body.append(element("h2", "", file.name), meta, content);
          root.append(media, body);
          return { root, meta, content, file };
        }

        """#
}
