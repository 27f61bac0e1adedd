/// The console's own stylesheet: served by the gateway, nothing fetched from elsewhere. Colours
/// keep WCAG AA contrast.
enum ConsoleStyle {
    static let css = """
        body{font:16px/1.45 system-ui,sans-serif;margin:0;color:#1a1a1a;background:#fff}
        .bar{display:flex;flex-wrap:wrap;gap:1rem;align-items:center;padding:.5rem 1rem;background:#0b3d5c;color:#fff}
        .bar a{color:#fff}.bar ul{display:flex;gap:1rem;list-style:none;margin:0;padding:0}
        .brand{font-weight:700;margin:0}.logout{margin-left:auto;display:flex;gap:.5rem;align-items:center}
        main{padding:1rem;max-width:72rem}
        a{color:#0b4f8a}
        .stack{display:flex;flex-direction:column;gap:.35rem;max-width:22rem}
        .filters{display:flex;flex-wrap:wrap;gap:.75rem;align-items:flex-end}
        .filters div{display:flex;flex-direction:column}
        .actions{display:flex;flex-wrap:wrap;gap:2rem}
        input,select,button{font:inherit;padding:.3rem .4rem}
        button{background:#0b4f8a;color:#fff;border:0;border-radius:3px;cursor:pointer}
        table{border-collapse:collapse;width:100%;margin-top:1rem}
        caption{text-align:left;font-weight:600;padding:.25rem 0}
        th,td{border-bottom:1px solid #ccc;padding:.3rem .5rem;text-align:left}
        dl{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1rem}dd{margin:0}
        .transaction{border:1px solid #ccc;border-radius:4px;padding:.5rem 1rem;margin:.75rem 0}
        pre{white-space:pre-wrap;word-break:break-all;background:#f4f4f4;padding:.5rem}
        .error{background:#fde8e8;color:#7a0b0b;padding:.5rem;border-left:4px solid #b00020}
        .message{background:#e6f4ea;color:#0d4d22;padding:.5rem;border-left:4px solid #1e7e34}
        .warning{color:#7a0b0b}code{background:#f4f4f4;padding:0 .2rem}
        .pages{display:flex;gap:1rem;margin-top:1rem}
        """
}
