/// The pages' other files, and the headers every page is sent with.
enum WebAssets {
    /// No script but the page's own file, no style but its sheet, pictures only from the page
    /// itself (QR codes and avatars are data URLs), forms only to this server, and never inside
    /// another site's frame.
    static let contentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        + "connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

    static let pageHeaders: [(name: String, value: String)] = [
        ("Content-Type", "text/html; charset=utf-8"),
        ("Content-Security-Policy", contentSecurityPolicy),
        ("X-Content-Type-Options", "nosniff"),
        // Not `no-referrer`: with it, browsers send a form's `Origin` as `null`, which the
        // check against other sites' posts refuses.
        ("Referrer-Policy", "same-origin"),
        ("X-Frame-Options", "DENY"),
        // A page shows one moment of a session: never kept, so back and reload ask again.
        ("Cache-Control", "no-store"),
    ]

    static func response(_ text: String, type: String) -> WebResponse {
        WebResponse(
            status: 200,
            headers: [("Content-Type", type), ("X-Content-Type-Options", "nosniff"), ("Cache-Control", "public, max-age=3600")],
            body: Array(text.utf8)
        )
    }

    /// Progressive enhancement only: every page works without it.
    ///
    /// - As an amount (or a day, or a part) is typed, the form is posted live in the background
    ///   and what it comes to (the parts under the form, each part's note, the status) is taken
    ///   from the answer, without touching what is being typed.
    /// - A select sends its form as soon as it changes, as a choice does on the terminal.
    /// - A sent form shows itself busy (and is not sent twice) until the next page comes; one
    ///   sent while a preview is on its way waits for it, so that it carries the page's version.
    /// - The page listens to `/web/events`. When another person's write changed what the user's
    ///   screen may show, it posts `do=:refresh` in the background and, if the screen read
    ///   again, puts the new one in place of the old, the focus on the same button. It waits
    ///   while anything is typed, chosen or focused and not yet sent, so nothing the user is
    ///   doing is lost.
    static let script = """
    "use strict";
    document.addEventListener("DOMContentLoaded", () => {
      let form = document.getElementById("screen");
      if (!form) return;
      let sending = false;
      let preview = null;
      let timer = null;
      let stale = false;
      const fetchPage = async (data) => {
        const answer = await fetch("/", { method: "POST", body: data, credentials: "same-origin" });
        if (!answer.ok) return null;
        return new DOMParser().parseFromString(await answer.text(), "text/html");
      };
      const take = (page, selector) => {
        const fresh = page.querySelector(selector);
        const shown = document.querySelector(selector);
        if (fresh && shown) shown.replaceWith(document.importNode(fresh, true));
      };
      const live = async () => {
        const data = new URLSearchParams(new FormData(form));
        data.delete("do");
        data.set("live", "1");
        const page = await fetchPage(data);
        if (!page) return;
        if (page.getElementById("screen")?.dataset.screen !== form.dataset.screen) { location.reload(); return; }
        for (const name of ["csrf", "version"]) {
          const fresh = page.querySelector(`input[name="${name}"]`);
          if (fresh) form.elements[name].value = fresh.value;
        }
        take(page, "#footer");
        take(page, "#status");
        for (const note of document.querySelectorAll("td.note")) take(page, `[id="${note.id}"]`);
      };
      // Anything typed, chosen or ticked and not yet sent, or a field being typed in.
      const busy = () => {
        if (sending || preview || timer) return true;
        const focused = document.activeElement;
        if (focused && focused.form === form && focused.matches("input:not([type=checkbox]), select")) return true;
        return [...form.elements].some((element) => {
          if (element.type === "hidden" || element.type === "submit") return false;
          if (element.type === "checkbox") return element.checked !== element.defaultChecked;
          if (element.tagName === "SELECT") return [...element.options].some((option) => option.selected !== option.defaultSelected);
          return "defaultValue" in element && element.value !== element.defaultValue;
        });
      };
      const refresh = async () => {
        stale = false;
        const data = new URLSearchParams();
        for (const name of ["csrf", "version"]) data.set(name, form.elements[name].value);
        data.set("do", ":refresh");
        const page = await fetchPage(data).catch(() => null);
        const fresh = page?.getElementById("screen");
        if (fresh && !busy() && fresh.elements.version?.value !== form.elements.version.value) {
          document.title = page.title;
          document.documentElement.dataset.theme = page.documentElement.dataset.theme;
          // The focus stays on the same button (or element) of the new screen, if it has one.
          const focused = document.activeElement;
          const same = focused?.form === form
            ? (focused.id ? `[id="${CSS.escape(focused.id)}"]` : `[name="${CSS.escape(focused.name)}"][value="${CSS.escape(focused.value)}"]:not(.default)`)
            : null;
          const replacement = document.importNode(fresh, true);
          form.replaceWith(replacement);
          form = replacement;
          if (same) form.querySelector(same)?.focus({ preventScroll: true });
          wire();
        }
        listen();
      };
      const listen = () => {
        if (!window.EventSource) return;
        const source = new EventSource("/web/events");
        source.addEventListener("change", () => {
          source.close();
          stale = true;
          if (!busy()) refresh();
        });
      };
      const wire = () => {
        for (const input of form.querySelectorAll("input[inputmode], input[autocomplete=off]")) {
          input.addEventListener("input", () => {
            clearTimeout(timer);
            timer = setTimeout(() => { timer = null; preview = live().catch(() => {}).finally(() => { preview = null; }); }, 200);
          });
        }
        form.addEventListener("submit", async (event) => {
          if (sending) { event.preventDefault(); return; }
          if (preview || timer) {
            event.preventDefault();
            clearTimeout(timer);
            timer = null;
            if (preview) await preview;
            sending = false;
            form.requestSubmit(event.submitter || undefined);
            return;
          }
          sending = true;
          form.setAttribute("aria-busy", "true");
          const status = document.getElementById("status");
          if (status && !status.querySelector(".busy")) {
            const busy = document.createElement("p");
            busy.className = "busy";
            busy.textContent = "Working…";
            status.appendChild(busy);
          }
        });
        for (const select of form.querySelectorAll("select")) {
          select.addEventListener("change", () => form.requestSubmit(form.querySelector("button.default")));
        }
        // A change heard while the user was busy shows once they are not.
        form.addEventListener("focusout", () => setTimeout(() => { if (stale && !busy()) refresh(); }, 0));
      };
      wire();
      listen();
    });

    """

    /// Light and dark follow the browser unless the user chose a theme; high contrast is black
    /// and white with thick outlines. Owed and owing differ by an arrow and weight, not colour alone.
    static let style = """
    :root { color-scheme: light dark; --bg: #fff; --fg: #1b1b1b; --muted: #555; --line: #bbb; --accent: #0b57d0;
      --accent-fg: #fff; --owed: #0a6b2b; --owing: #a3161b; --error: #a3161b; --field: #fff; }
    @media (prefers-color-scheme: dark) {
      :root[data-theme="auto"] { --bg: #121212; --fg: #eee; --muted: #aaa; --line: #555; --accent: #8ab4f8; --accent-fg: #111;
        --owed: #7dd99a; --owing: #ff9c9c; --error: #ff9c9c; --field: #1e1e1e; }
    }
    :root[data-theme="dark"] { --bg: #121212; --fg: #eee; --muted: #aaa; --line: #555; --accent: #8ab4f8; --accent-fg: #111;
      --owed: #7dd99a; --owing: #ff9c9c; --error: #ff9c9c; --field: #1e1e1e; color-scheme: dark; }
    :root[data-theme="light"], :root[data-theme="no-colour"] { color-scheme: light; }
    :root[data-theme="no-colour"] { --accent: #1b1b1b; --owed: #1b1b1b; --owing: #1b1b1b; --error: #1b1b1b; }
    :root[data-theme="high-contrast"] { --bg: #000; --fg: #fff; --muted: #fff; --line: #fff; --accent: #ff0; --accent-fg: #000;
      --owed: #fff; --owing: #fff; --error: #ff0; --field: #000; color-scheme: dark; }
    :root[data-theme="high-contrast"] :is(input, select, button) { border-width: 3px; }
    * { box-sizing: border-box; }
    body { margin: 0; background: var(--bg); color: var(--fg); font: 16px/1.5 system-ui, sans-serif; }
    main, header { max-width: 44rem; margin: 0 auto; padding: 0 1rem; }
    h1 { font-size: 1.5rem; margin: 1rem 0 .5rem; }
    .crumbs ol { list-style: none; display: flex; flex-wrap: wrap; gap: .25rem; padding: 0; margin: .75rem 0 0; color: var(--muted); }
    .crumbs li + li::before { content: "›"; margin-right: .25rem; }
    .tabs ul { list-style: none; display: flex; flex-wrap: wrap; gap: .25rem; padding: 0; margin: .75rem 0 0; }
    .tabs button { background: none; color: var(--fg); border: 1px solid var(--line); }
    .tabs button[aria-current="page"] { background: var(--accent); color: var(--accent-fg); border-color: var(--accent); font-weight: 700; }
    p.text, p.footer { white-space: pre-wrap; margin: .25rem 0; }
    .field { margin: 1rem 0; }
    label, legend { display: block; font-weight: 600; margin-bottom: .25rem; }
    label.check { font-weight: 400; display: flex; gap: .5rem; align-items: center; }
    fieldset { border: 1px solid var(--line); border-radius: .5rem; padding: .5rem .75rem; margin: 0; }
    .input { display: flex; gap: .5rem; align-items: center; }
    input:not([type="checkbox"]), select { font: inherit; color: var(--fg); background: var(--field); border: 1px solid var(--line);
      border-radius: .375rem; padding: .5rem; width: 100%; max-width: 28rem; min-height: 2.75rem; }
    button { font: inherit; min-height: 2.75rem; padding: .5rem 1rem; border-radius: .375rem; border: 1px solid var(--line);
      background: var(--field); color: var(--fg); cursor: pointer; }
    button.primary { background: var(--accent); color: var(--accent-fg); border-color: var(--accent); font-weight: 700; }
    button[aria-pressed="true"] { outline: 2px solid var(--accent); font-weight: 700; }
    button[aria-pressed="true"]::before { content: "✓ "; }
    :focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
    .options { display: flex; flex-direction: column; align-items: stretch; gap: .375rem; }
    .options button { text-align: left; }
    .detail, .hint, .optional, .suffix { color: var(--muted); }
    .hint { margin: .25rem 0 0; font-size: .9rem; }
    .field-error, .error { color: var(--error); font-weight: 600; }
    .field-error::before, p.error::before { content: "✗ "; }
    .invalid input { border-color: var(--error); border-width: 2px; }
    .status p { margin: .5rem 0; padding: .5rem .75rem; border-left: 4px solid var(--accent); }
    .busy::before { content: "⏳ "; }
    strong.owed::before { content: "▲ "; }
    strong.owing::before { content: "▼ "; }
    strong.owed { color: var(--owed); }
    strong.owing { color: var(--owing); text-decoration: underline; }
    .actions { display: flex; flex-wrap: wrap; gap: .5rem; margin: 1.5rem 0 2rem; }
    .default, .visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0);
      clip-path: inset(50%); white-space: nowrap; border: 0; padding: 0; margin: -1px; min-height: 0; }
    figure { margin: .75rem 0; }
    figure img { max-width: 12rem; height: auto; background: #fff; }
    .badge { display: inline-flex; width: 3rem; height: 3rem; border-radius: 50%; align-items: center; justify-content: center;
      color: #fff; font-weight: 700; background: #666; }
    .colour-red { background: #b3261e; } .colour-orange { background: #b35a00; } .colour-yellow { background: #8a6d00; }
    .colour-green { background: #1e6b35; } .colour-teal { background: #00696b; } .colour-blue { background: #1a5bb5; }
    .colour-purple { background: #6a3aa0; } .colour-pink { background: #a0305f; }
    table { border-collapse: collapse; width: 100%; }
    th, td { text-align: left; padding: .25rem .5rem .25rem 0; vertical-align: middle; }
    @media (max-width: 30rem) { main, header { padding: 0 .75rem; } .actions button { flex: 1 1 100%; } }

    """
}
