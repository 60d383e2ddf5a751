extension WebPageScript {
    /// Settings and screens: tabs (arrow keys move between them), the model picker, the model's
    /// metadata (`GET /v2/models/NAME`, one click away), the token kept in `sessionStorage`
    /// (this tab only), then the start: models, and the camera.
    static let settings = #"""
        const tabs = ["live", "gallery", "settings"];
        function show(screen) {
          for (const name of tabs) {
            const tab = $("tab-" + name);
            tab.setAttribute("aria-selected", String(name === screen));
            tab.tabIndex = name === screen ? 0 : -1;
            $(name).hidden = name !== screen;
          }
          // The camera's frames go to the server only while the live screen is shown.
          if (screen !== "live") setLive(false);
          else if (!live.pausedByUser) setLive(true);
        }
        tabs.forEach((name, index) => {
          const tab = $("tab-" + name);
          tab.addEventListener("click", () => show(name));
          tab.addEventListener("keydown", (e) => {
            const step = e.key === "ArrowRight" ? 1 : e.key === "ArrowLeft" ? -1 : 0;
            if (!step) return;
            const next = tabs[(index + step + tabs.length) % tabs.length];
            show(next);
            $("tab-" + next).focus();
          });
        });
        const detailsCache = new Map();
        async function detailsOf(model) {
          if (!detailsCache.has(model.name)) detailsCache.set(model.name, (await call("/v1/models/" + encodeURIComponent(model.name))).body);
          return detailsCache.get(model.name);
        }
        // The display-names locales of the model's first head; only the one the server loaded can be asked for.
        async function modelChanged() {
          const model = currentModel();
          $("live-model").textContent = model ? "Model " + model.name : "No model";
          $("details").hidden = true;
          $("details-toggle").setAttribute("aria-expanded", "false");
          $("locale-row").hidden = true;
          if (!model) return;
          let details = null;
          try { details = await detailsOf(model); } catch (error) { return; }
          const summary = details.summary, locales = (summary && summary.heads[0] && summary.heads[0].locales) || [];
          if (!locales.length || !summary.servedLocale) return;
          $("locale").replaceChildren(...locales.map((code) => {
            const option = new Option(code === summary.servedLocale ? code : code + " (restart the server with --locale " + code + ")", code);
            option.disabled = code !== summary.servedLocale;
            return option;
          }));
          $("locale").value = summary.servedLocale;
          $("locale-row").hidden = false;
        }
        function tensors(list) { return list.map((t) => t.name + " " + t.type + " [" + t.shape.join(", ") + "]").join("; "); }
        function detailRows(details) {
          const s = details.summary;
          const rows = [["Name", details.name], ["Kind", details.kind], ["Task", details.task]];
          if (!s) return rows.concat([["Model", "An AutoML export (a folder of files)."]]);
          rows.push(["Metadata name", s.name || "none"], ["Description", s.description || "none"], ["Version", s.version || "none"],
            ["Author", s.author || "none"], ["License", s.license || "none"], ["Inputs", tensors(s.inputs)], ["Outputs", tensors(s.outputs)]);
          s.heads.forEach((h, i) => rows.push(["Head " + i + (h.name ? " (" + h.name + ")" : ""), h.categories + " categories, "
            + (h.labels === undefined || h.labels === null ? "no labels" : h.labels + " labels")
            + (h.locales.length ? ", display names in " + h.locales.join(", ") : "")]));
          if (s.servedLocale) rows.push(["Display names served", s.servedLocale]);
          return rows;
        }
        async function toggleDetails() {
          const details = $("details"), model = currentModel();
          if (!details.hidden || !model) { details.hidden = true; $("details-toggle").setAttribute("aria-expanded", "false"); return; }
          let rows;
          try { rows = detailRows(await detailsOf(model)); }
          catch (error) { rows = [["Error", words(error, { kind: "details", name: model.name })]]; }
          details.replaceChildren(...rows.flatMap(([k, v]) => [element("dt", "", k), element("dd", "", v)]));
          details.hidden = false;
          $("details-toggle").setAttribute("aria-expanded", "true");
        }
        $("details-toggle").addEventListener("click", toggleDetails);
        $("model").addEventListener("change", modelChanged);
        $("settings-form").addEventListener("submit", (e) => e.preventDefault());
        $("token").value = state.token;
        $("token").addEventListener("change", () => {
          state.token = $("token").value.trim();
          if (state.token) sessionStorage.setItem("vision-tasks-token", state.token);
          else sessionStorage.removeItem("vision-tasks-token");
          loadModels();
        });
        loadModels().then(startCamera);

        """#
}
