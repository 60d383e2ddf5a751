/// The page's style: one column that fits 360 px phones (nothing wider than the viewport:
/// flex items may shrink, long names wrap), wider cards at desktop width, visible focus, and
/// controls at least 44 px tall (Apple's and the WCAG's target size for a finger).
/// `hidden` wins over every display rule (a hidden grid label stays hidden).
enum WebPageStyle {
    static let css = """
        *{box-sizing:border-box}
        [hidden]{display:none!important}
        body{font:15px/1.4 system-ui,sans-serif;margin:0 auto;max-width:64em;padding:0 .75em 2em;color:#1d2430}
        header{display:flex;flex-wrap:wrap;align-items:center;gap:.5em 1em;padding:.5em 0}
        h1{font-size:1.2em;margin:0}
        nav{display:flex;gap:.25em;flex-wrap:wrap}
        nav button{border:1px solid #b8c0cc;background:#fff;border-radius:6px;padding:.45em .9em;font:inherit;cursor:pointer}
        nav button[aria-selected=true]{background:#1f5fbf;color:#fff;border-color:#1f5fbf}
        button,select,input{font:inherit}
        button,select,input:not([type=file]){min-height:44px}button{min-width:44px}
        :focus-visible{outline:3px solid #f0a500;outline-offset:2px}
        .notice{background:#fdecea;color:#8a1c12;border-radius:6px;padding:.6em .8em}
        .message{min-height:1.4em}.message.error,.error{color:#a11b0f}
        .stage{position:relative;width:100%;max-width:640px;background:#111;border-radius:8px;overflow:hidden;min-height:8em}
        .stage video{display:block;width:100%;height:auto}
        .overlay{position:absolute;left:0;right:0;bottom:0;padding:.5em .75em;background:rgba(0,0,0,.6);color:#fff}
        .overlay:empty{display:none}
        .overlay .top{font-size:1.25em;font-weight:600;overflow-wrap:anywhere}
        .overlay .bar .track{background:rgba(255,255,255,.25)}
        .stats{color:#4a5565;overflow-wrap:anywhere}
        .drop{display:block;border:2px dashed #8a94a3;border-radius:8px;padding:1.5em 1em;text-align:center;margin:1em 0}
        .drop.over{background:#eef3fd}
        .drop input{display:block;margin:.75em auto 0;max-width:100%}
        .card{display:flex;flex-wrap:wrap;gap:.75em;border-top:1px solid #dde2e8;padding:1em 0}
        .card>img,.card>video{width:160px;max-width:100%;max-height:160px;object-fit:contain;background:#f3f5f8;border-radius:4px}
        .placeholder{width:160px;height:100px;display:grid;place-items:center;background:#f3f5f8;color:#4a5565;border-radius:4px}
        .card .body{flex:1 1 14em;min-width:0}
        .card h2{font-size:1em;margin:0 0 .25em;overflow-wrap:anywhere}
        .meta{color:#4a5565;font-size:.9em;margin:0 0 .4em;overflow-wrap:anywhere}
        .bar{display:grid;grid-template-columns:minmax(0,10em) minmax(2em,1fr) 4.2em;align-items:center;gap:.5em;margin:.2em 0}
        .bar .name{overflow-wrap:anywhere}
        .bar .track{background:#e6e9ee;height:.9em;border-radius:3px;overflow:hidden}
        .bar .fill{display:block;background:#3a7bd5;height:100%}
        .bar .score{text-align:right;font-variant-numeric:tabular-nums}
        .none{color:#4a5565;font-style:italic}
        progress{width:100%}
        .timeline-plot{width:100%;height:auto;font:13px system-ui,sans-serif}
        table.spans{border-collapse:collapse;width:100%;font-size:.9em}
        table.spans td,table.spans th{border-bottom:1px solid #e1e5ea;padding:.2em .3em;text-align:left;overflow-wrap:anywhere}
        .chip{display:inline-block;width:.8em;height:.8em;border-radius:2px;background:var(--c);margin-right:.3em}
        .settings{display:grid;gap:.9em;max-width:30em}
        .settings label{display:grid;gap:.25em}
        .settings input,.settings select{width:100%;padding:.35em}
        .settings button{justify-self:start;padding:.4em .8em}
        .details{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:.2em .8em;margin:0;background:#f3f5f8;
        padding:.6em;border-radius:6px}
        .details dt{font-weight:600}.details dd{margin:0;overflow-wrap:anywhere}
        .hint{color:#4a5565;font-size:.9em;margin:0}
        """
}
