/// The page at `/`: pick a model, drop or choose images (or take a camera snapshot), see each
/// image with its top categories as bars. Self-contained: no external scripts, styles or fonts.
enum WebPage {
    static let html = """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
        <title>vision-tasks serve</title>
        <style>
        body{font:15px system-ui,sans-serif;margin:2em auto;max-width:60em;padding:0 1em;color:#222}
        #drop{border:2px dashed #888;border-radius:8px;padding:2em;text-align:center;margin:1em 0}
        #drop.over{background:#eef}
        .result{display:flex;gap:1em;border-top:1px solid #ddd;padding:1em 0}
        .result img{max-width:160px;max-height:160px;object-fit:contain}
        .bars{flex:1}.bar{display:flex;align-items:center;gap:.5em;margin:.2em 0}
        .bar .name{width:12em;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
        .bar .track{flex:1;background:#eee;height:1em;border-radius:3px}
        .bar .fill{background:#3a7bd5;height:100%;border-radius:3px}
        .error{color:#b00}
        video{max-width:320px;display:none}
        </style></head><body>
        <h1>vision-tasks serve</h1>
        <p><label>Model <select id="model"></select></label>
        <label>Token <input id="token" type="password" placeholder="only if the server needs one"></label></p>
        <div id="drop">Drop images here, or <input id="files" type="file" accept="image/*" multiple>
        <button id="camera" type="button">Camera snapshot</button></div>
        <video id="video" autoplay playsinline></video>
        <div id="status" role="status"></div>
        <div id="results"></div>
        <script>
        "use strict";
        const $ = (id) => document.getElementById(id);
        function headers() {
          const token = $("token").value.trim();
          return token ? { Authorization: "Bearer " + token } : {};
        }
        function say(text, isError) { $("status").textContent = text; $("status").className = isError ? "error" : ""; }
        async function loadModels() {
          try {
            const response = await fetch("/v1/models", { headers: headers() });
            const body = await response.json();
            if (!response.ok) { say(body.error || ("HTTP " + response.status), true); return; }
            $("model").replaceChildren(...body.models.map((m) => {
              const option = new Option(m.name + " (" + m.kind + ")", m.name); option.dataset.task = m.task; return option;
            }));
          } catch (error) { say("Cannot reach the server: " + error, true); }
        }
        function show(blob, name, record) {
          const row = document.createElement("div"); row.className = "result";
          const img = document.createElement("img"); img.src = URL.createObjectURL(blob); img.alt = name;
          const bars = document.createElement("div"); bars.className = "bars";
          const title = document.createElement("div"); title.textContent = name; bars.append(title);
          if (record.error) {
            const error = document.createElement("div"); error.className = "error"; error.textContent = record.error;
            bars.append(error);
          }
          for (const e of record.embeddings || []) {
            const values = e.floatEmbedding || e.quantizedEmbedding || [];
            const line = document.createElement("div");
            line.textContent = "Embedding: " + values.length + " values" + (e.headName ? " (" + e.headName + ")" : "");
            bars.append(line);
          }
          const categories = record.classifications ? record.classifications[0].categories
            : (record.labels || []).map((l) => ({ categoryName: l.text, score: l.confidence }));
          for (const c of categories) {
            const bar = document.createElement("div"); bar.className = "bar";
            const label = document.createElement("span"); label.className = "name";
            label.textContent = c.displayName || c.categoryName || ("#" + c.index);
            const track = document.createElement("span"); track.className = "track";
            const fill = document.createElement("span"); fill.className = "fill"; fill.style.display = "block";
            fill.style.width = (100 * c.score).toFixed(1) + "%"; track.append(fill);
            const score = document.createElement("span"); score.textContent = c.score.toFixed(3);
            bar.append(label, track, score); bars.append(bar);
          }
          row.append(img, bars); $("results").prepend(row);
        }
        async function classify(blob, name) {
          say("Sending " + name + "...");
          const task = ($("model").selectedOptions[0] || {}).dataset?.task || "classify";
          try {
            const response = await fetch("/v1/models/" + encodeURIComponent($("model").value) + "/" + task, {
              method: "POST", headers: { ...headers(), "Content-Type": blob.type || "image/jpeg" }, body: blob });
            const body = await response.json();
            if (!response.ok) { show(blob, name, { error: body.error || ("HTTP " + response.status) }); say("", false); return; }
            show(blob, name, body[0]); say("Done: " + name);
          } catch (error) { say("Request failed: " + error, true); }
        }
        async function classifyAll(files) { for (const file of files) await classify(file, file.name); }
        $("files").addEventListener("change", (e) => classifyAll(e.target.files));
        const drop = $("drop");
        drop.addEventListener("dragover", (e) => { e.preventDefault(); drop.classList.add("over"); });
        drop.addEventListener("dragleave", () => drop.classList.remove("over"));
        drop.addEventListener("drop", (e) => { e.preventDefault(); drop.classList.remove("over"); classifyAll(e.dataTransfer.files); });
        $("camera").addEventListener("click", async () => {
          const video = $("video");
          if (!navigator.mediaDevices || !navigator.mediaDevices.getUserMedia) { say("This browser gives no camera here (it needs HTTPS or localhost).", true); return; }
          try {
            if (!video.srcObject) { video.srcObject = await navigator.mediaDevices.getUserMedia({ video: true }); video.style.display = "block"; return; }
            const canvas = document.createElement("canvas"); canvas.width = video.videoWidth; canvas.height = video.videoHeight;
            canvas.getContext("2d").drawImage(video, 0, 0);
            canvas.toBlob((blob) => classify(blob, "camera snapshot"), "image/jpeg", 0.92);
          } catch (error) { say("Camera unavailable: " + error, true); }
        });
        $("token").addEventListener("change", loadModels);
        loadModels();
        </script></body></html>
        """
}
