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
        function modelChanged() {
          const model = currentModel();
          $("live-model").textContent = model ? "Model " + model.name : "No model";
          $("details").hidden = true;
          $("details-toggle").setAttribute("aria-expanded", "false");
        }
        async function toggleDetails() {
          const details = $("details"), model = currentModel();
          if (!details.hidden || !model) { details.hidden = true; $("details-toggle").setAttribute("aria-expanded", "false"); return; }
          const rows = [];
          try {
            const { body } = await call("/v2/models/" + encodeURIComponent(model.name));
            const tensors = (list) => list.map((t) => t.name + " " + t.datatype + " [" + t.shape.join(", ") + "]").join("; ");
            rows.push(["Name", body.name], ["Kind", model.kind], ["Task", body.task], ["Platform", body.platform],
              ["Versions", body.versions.join(", ")], ["Inputs", tensors(body.inputs)], ["Outputs", tensors(body.outputs)]);
          } catch (error) { rows.push(["Error", words(error, { kind: "details", name: model.name })]); }
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
