extension WebPageScript {
    /// The gallery: photos and videos classified one after another in the order chosen, each in
    /// its card. A video goes to `classify-video` with upload progress, then the server's
    /// progress (`GET /v1/videos/JOB`), and is shown as the HTML report's timeline (a band per
    /// span of the same top category, seconds below) and its spans. With an embedder, each photo
    /// names the most similar of the others (cosine similarity). Clear removes the cards and
    /// revokes their media's object URLs.
    static let gallery = #"""
        async function addFiles(files) {
          const model = currentModel();
          if (!model) { $("gallery-message").textContent = "No model is loaded yet: see the message above."; return; }
          const items = Array.from(files).map((file) => {
            const video = file.type.startsWith("video/");
            const item = card(file, video ? element("video") : element("img"));
            if (video) { item.root.firstChild.controls = true; item.root.firstChild.muted = true; }
            item.video = video;
            $("results").append(item.root);
            return item;
          });
          $("gallery-clear").hidden = false;
          for (const item of items) await (item.video ? classifyVideo(item, model) : classifyPhoto(item, model));
          if (model.task === "embed") showSimilar(items.filter((item) => item.embedding));
        }
        // Clear: every card goes, and its media's object URL is revoked (the page keeps nothing).
        $("gallery-clear").addEventListener("click", () => {
          galleryURLs.splice(0).forEach((url) => URL.revokeObjectURL(url));
          $("results").replaceChildren();
          $("gallery-clear").hidden = true;
          $("gallery-message").textContent = "";
        });
        async function classifyPhoto(item, model) {
          item.meta.textContent = "Classifying\u2026";
          try {
            const { body, response } = await call(modelPath(model, model.task) + "?" + settingsQuery(), {
              method: "POST", headers: { "Content-Type": item.file.type || "application/octet-stream" }, body: item.file });
            item.meta.textContent = metaText(model, inferenceMilliseconds(response.headers.get("Server-Timing")));
            item.content.replaceChildren(recordView(body[0]));
            const e = body[0].embeddings && body[0].embeddings[0];
            item.embedding = e && (e.floatEmbedding || e.quantizedEmbedding);
          } catch (error) {
            item.meta.textContent = "Model " + model.name;
            item.content.replaceChildren(element("p", "error", words(error, { kind: "photo", name: item.file.name })));
          }
        }
        function showSimilar(items) {
          const cosine = (a, b) => {
            let dot = 0, na = 0, nb = 0;
            for (let i = 0; i < a.length; i++) { dot += a[i] * b[i]; na += a[i] * a[i]; nb += b[i] * b[i]; }
            return dot / Math.sqrt(na * nb);
          };
          for (const item of items) {
            const others = items.filter((o) => o !== item).map((o) => ({ o, s: cosine(item.embedding, o.embedding) }));
            if (!others.length) continue;
            others.sort((x, y) => y.s - x.s);
            item.content.append(element("p", "similar", "Most similar among these photos: " + others[0].o.file.name
              + " (cosine similarity " + others[0].s.toFixed(3) + ")."));
          }
        }
        function videoFails(item, text) { item.content.replaceChildren(element("p", "error", text)); }
        function classifyVideo(item, model) {
          const limits = state.limits;
          if (model.kind !== "classifier") return videoFails(item, "Videos need a classifier model; choose one under Settings.");
          if (limits && item.file.size > limits.maxBytes) {
            return videoFails(item, quoted(item.file.name) + " is too large: videos of at most "
              + Math.floor(limits.maxBytes / 1048576) + " MB are classified.");
          }
          const job = "v" + Date.now().toString(36) + Math.random().toString(36).slice(2, 8);
          const bar = element("progress");
          bar.max = 1; bar.value = 0;
          const status = element("p", "progress-text", "Uploading\u2026");
          item.content.replaceChildren(status, bar);
          item.meta.textContent = "Model " + model.name;
          return new Promise((resolve) => {
            const request = new XMLHttpRequest();
            let done = false;
            request.open("POST", modelPath(model, "classify-video") + "?" + settingsQuery() + "&job=" + job);
            for (const [name, value] of Object.entries(authorization())) request.setRequestHeader(name, value);
            request.upload.onprogress = (e) => {
              if (e.lengthComputable) status.textContent = "Uploading\u2026 " + Math.round(100 * e.loaded / e.total) + "%";
            };
            request.upload.onload = () => pollVideo(job, status, bar, () => done);
            request.onload = () => {
              done = true;
              let body = null;
              try { body = JSON.parse(request.responseText); } catch (error) { body = null; }
              if (request.status === 200 && body) {
                item.meta.textContent = metaText(model, inferenceMilliseconds(request.getResponseHeader("Server-Timing")));
                showVideo(item, body);
              }
              else videoFails(item, words(new ServerError(request.status, (body && body.error) || ""), { kind: "video", name: item.file.name }));
              resolve();
            };
            request.onerror = () => { done = true; videoFails(item, words(new ServerError(0, ""), { kind: "video" })); resolve(); };
            request.send(item.file);
          });
        }
        async function pollVideo(job, status, bar, finished) {
          status.textContent = "Classifying\u2026";
          while (!finished()) {
            try {
              const { body } = await call("/v1/videos/" + job);
              bar.value = body.fraction;
              status.textContent = "Classifying\u2026 " + Math.round(100 * body.fraction) + "%";
            } catch (error) { /* not started yet, or just finished */ }
            await pause(400);
          }
        }
        const palette = ["#8db7f2", "#f5b971", "#95d5a2", "#f09c9c", "#c4a7ea", "#f2d46b", "#8ed4d8", "#f2a8cf", "#bcc98a", "#cdb59c"];
        function colors() {
          const assigned = new Map();
          return (name) => {
            if (!name) return "#c8ccd2";
            if (!assigned.has(name)) assigned.set(name, palette[assigned.size % palette.length]);
            return assigned.get(name);
          };
        }
        function seconds(ms) { return (ms / 1000).toFixed(1) + " s"; }
        function showVideo(item, outcome) {
          const color = colors();
          const spans = outcome.spans;
          const summary = element("p", "stats", outcome.frames.length + " frames classified \u00b7 " + spans.length
            + (spans.length === 1 ? " span" : " spans"));
          if (!spans.length) { item.content.replaceChildren(summary, element("p", "none", "No frame was classified.")); return; }
          const table = element("table", "spans");
          table.innerHTML = "<thead><tr><th>top category</th><th>from \u2013 to</th><th>frames</th></tr></thead>";
          const rows = element("tbody");
          for (const span of spans) {
            const row = element("tr");
            const name = element("td");
            const chip = element("span", "chip");
            chip.style.setProperty("--c", color(span.category));
            name.append(chip, span.category || "(nothing above the threshold)");
            row.append(name, element("td", "", seconds(span.fromMilliseconds) + " \u2013 " + seconds(span.toMilliseconds)),
              element("td", "", String(span.frames)));
            rows.append(row);
          }
          table.append(rows);
          item.content.replaceChildren(summary, timeline(spans, color), table);
        }
        // The report's timeline: a band per span from its first frame to the next span's first frame.
        function timeline(spans, color) {
          // The HTML parser gives the SVG namespace (the page spells out no URL).
          const holder = element("div");
          holder.innerHTML = "<svg></svg>";
          const ns = holder.firstChild.namespaceURI;
          const node = (tag, attributes, text) => {
            const n = document.createElementNS(ns, tag);
            for (const [k, v] of Object.entries(attributes)) n.setAttribute(k, v);
            if (text !== undefined) n.textContent = text;
            return n;
          };
          const first = spans[0], last = spans[spans.length - 1];
          const frames = spans.reduce((sum, s) => sum + s.frames, 0);
          const interval = frames > 1 ? (last.toMilliseconds - first.fromMilliseconds) / (frames - 1) : 100;
          const start = first.fromMilliseconds, end = Math.max(last.toMilliseconds + Math.max(interval, 1), start + 1);
          const x = (t) => (t - start) / (end - start) * 1000;
          const svg = node("svg", { class: "timeline-plot", viewBox: "0 0 1000 74", role: "img", "aria-label": "Top category over time" });
          spans.forEach((span, i) => {
            const from = x(span.fromMilliseconds), to = i + 1 < spans.length ? x(spans[i + 1].fromMilliseconds) : 1000;
            const group = node("g", { class: "span-band" });
            const name = span.category || "(nothing above the threshold)";
            group.append(node("title", {}, name + ": " + seconds(span.fromMilliseconds) + " \u2013 " + seconds(span.toMilliseconds)));
            group.append(node("rect", { class: "span", x: from.toFixed(2), y: 4, width: Math.max(to - from, 0.5).toFixed(2), height: 40,
              fill: color(span.category), stroke: "#fff", "data-category": span.category }));
            if (to - from > name.length * 7.5 + 12) group.append(node("text", { x: (from + 6).toFixed(2), y: 29, fill: "#10151f" }, name));
            svg.append(group);
          });
          const total = (end - start) / 1000;
          const step = [0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30, 60].find((s) => total / s <= 10) || 120;
          for (let tick = Math.ceil(start / 1000 / step) * step; tick * 1000 <= end; tick += step) {
            const position = x(tick * 1000);
            svg.append(node("line", { x1: position, x2: position, y1: 44, y2: 50, stroke: "#98a2b3" }));
            const anchor = position < 20 ? "start" : position > 980 ? "end" : "middle";
            svg.append(node("text", { x: position, y: 66, "text-anchor": anchor, fill: "#5f6b7a" }, (step < 1 ? tick.toFixed(1) : tick.toFixed(0)) + " s"));
          }
          return svg;
        }
        $("files").addEventListener("change", (e) => {
          const files = Array.from(e.target.files);
          e.target.value = "";  // the next choice starts afresh (and the same file can be chosen again)
          addFiles(files);
        });
        const drop = $("drop");
        drop.addEventListener("dragover", (e) => { e.preventDefault(); drop.classList.add("over"); });
        drop.addEventListener("dragleave", () => drop.classList.remove("over"));
        drop.addEventListener("drop", (e) => { e.preventDefault(); drop.classList.remove("over"); addFiles(e.dataTransfer.files); });

        """#
}
