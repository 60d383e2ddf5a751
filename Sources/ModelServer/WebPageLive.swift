extension WebPageScript {
    /// The live screen: the camera's frames sent one at a time to the model's v1 route over the
    /// page's keep-alive connection. A frame is taken from the video only when the previous
    /// answer is in and the camera has a new one (`requestVideoFrameCallback`, or the video's
    /// time where it is missing), so the newest frame always wins, nothing queues, in the
    /// browser or in the server (MediaPipe's live-stream rule), and no frame is sent twice.
    /// Results go over the video with the server's inference time (`Server-Timing`) and the
    /// frames answered per second. A camera refused or missing offers "Try again", and starts
    /// by itself when the browser's permission changes to granted.
    static let live = #"""
        const live = { running: false, pausedByUser: false, looping: false, answered: [], canvas: document.createElement("canvas"),
          lastFrame: null, stats: { captures: 0, repeats: 0 } };
        function cameraWords(error) {
          switch (error && error.name) {
            case "NotAllowedError": return "The camera was not allowed. Allow it in the browser's site settings, or use the Gallery.";
            case "NotReadableError": return "The camera is in use by another program. Close it, then reload the page.";
            default: return "No camera was found. You can still classify photos and videos in the Gallery.";
          }
        }
        async function startCamera() {
          const message = $("live-message");
          if (!navigator.mediaDevices || !navigator.mediaDevices.getUserMedia) {
            message.textContent = "This browser gives the page no camera (it needs https or localhost). The Gallery works without one.";
            $("live-toggle").hidden = true;
            return;
          }
          try {
            $("video").srcObject = await navigator.mediaDevices.getUserMedia({ video: { width: { ideal: 640 } }, audio: false });
            await $("video").play();
          } catch (error) {
            message.textContent = cameraWords(error);
            $("live-toggle").hidden = true;
            $("live-retry").hidden = false;
            return;
          }
          message.textContent = "";
          $("live-retry").hidden = true;
          $("live-toggle").hidden = false;
          setLive(true);
        }
        $("live-retry").addEventListener("click", startCamera);
        // Allowed later in the browser's site settings: start without a reload.
        if (navigator.permissions && navigator.permissions.query) {
          navigator.permissions.query({ name: "camera" }).then((status) => {
            status.addEventListener("change", () => { if (status.state === "granted" && !$("video").srcObject) startCamera(); });
          }).catch(() => {});
        }
        // The next frame the camera gives after `last` (its presented-frame count or time): a
        // frame already sent is never sent again.
        function nextFrame(video, last) {
          return new Promise((resolve) => {
            if (video.requestVideoFrameCallback) {
              const wait = () => video.requestVideoFrameCallback((now, meta) => meta.presentedFrames !== last ? resolve(meta.presentedFrames) : wait());
              wait();
            } else {
              const check = () => video.currentTime !== last ? resolve(video.currentTime) : requestAnimationFrame(check);
              check();
            }
          });
        }
        function setLive(running) {
          live.running = running && !!$("video").srcObject;
          $("live-toggle").textContent = live.running ? "Pause" : "Resume";
          if (live.running && !live.looping) liveLoop();
        }
        function frameBlob() {
          const video = $("video");
          const scale = Math.min(1, 480 / video.videoWidth);
          live.canvas.width = Math.round(video.videoWidth * scale);
          live.canvas.height = Math.round(video.videoHeight * scale);
          live.canvas.getContext("2d").drawImage(video, 0, 0, live.canvas.width, live.canvas.height);
          return new Promise((resolve) => live.canvas.toBlob(resolve, "image/jpeg", 0.85));
        }
        async function liveLoop() {
          live.looping = true;
          while (live.running) {
            const model = currentModel();
            if (!model || $("video").readyState < 2) { await pause(50); continue; }
            const frame = await nextFrame($("video"), live.lastFrame);
            if (!live.running) break;
            live.stats.captures += 1;
            if (frame === live.lastFrame) live.stats.repeats += 1;
            live.lastFrame = frame;
            const blob = await frameBlob();
            try {
              const { body, response } = await call(modelPath(model, model.task) + "?" + settingsQuery(), {
                method: "POST", headers: { "Content-Type": "image/jpeg" }, body: blob });
              showLive(model, body[0], inferenceMilliseconds(response.headers.get("Server-Timing")));
              $("live-message").textContent = "";
            } catch (error) {
              $("live-message").textContent = words(error, { kind: "frame", name: "" });
              await pause(1000);  // the server refused or is gone: retry slowly, not in a tight loop
            }
          }
          live.looping = false;
        }
        function showLive(model, record, milliseconds) {
          const now = performance.now();
          live.answered = live.answered.filter((t) => now - t < 2000).concat([now]);
          const span = (now - live.answered[0]) / 1000;
          if (live.answered.length > 1 && span > 0) $("live-fps").textContent = ((live.answered.length - 1) / span).toFixed(1) + " frames/s";
          if (milliseconds !== null) $("live-time").textContent = milliseconds.toFixed(1) + " ms inference";
          const overlay = $("overlay");
          const categories = record.embeddings ? [] : categoriesOf(record);
          const top = element("div", "top", categories.length ? categories[0].name + " " + percent(categories[0].score)
            : record.embeddings ? "" : noneText());
          top.id = "live-top";
          overlay.replaceChildren(top, record.embeddings ? recordView(record) : bars(categories.slice(1)));
          overlay.dataset.top = categories.length ? categories[0].name : "";
          overlay.dataset.index = categories.length ? String(categories[0].index) : "";
        }
        $("live-toggle").addEventListener("click", () => {
          live.pausedByUser = live.running;
          setLive(!live.running);
        });

        """#
}
