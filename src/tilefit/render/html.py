"""Self-contained HTML report (no scripts, no external assets)."""

from __future__ import annotations

from html import escape

from tilefit.render.common import config_line, devices_line, header_tags, measured_text, numbers_line, omitted_line
from tilefit.render.i18n import label
from tilefit.render.view import ExplainView, MatchView

_CSS = (
    "body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;line-height:1.5}"
    "section{border:1px solid #ccc;border-radius:8px;padding:1rem 1.5rem;margin:1rem 0}"
    ".tags{color:#555}.num{font-family:monospace}.dead{color:#8a1f11}code{background:#f4f4f4;padding:0 .2em}"
)


def _link(url: str, text: str) -> str:
    return f'<a href="{escape(url, quote=True)}">{escape(text)}</a>'


def _match(m: MatchView, lang: str) -> list[str]:
    e = escape
    out = ["<section>", f"<h2>{e(m['title'])}</h2>", f'<p class="tags"><code>{e(m["entry"])}</code> · '
           f"{e(header_tags(m, lang))}</p>", "<ul>"]
    for key, value in (
        ("resource", numbers_line(m, lang)), ("devices", devices_line(m)),
        ("framework", f"{m['framework']} · {label(lang, 'phase')}: {m['phase']}"), ("config", config_line(m)),
    ):
        if value:
            out.append(f'<li><b>{e(label(lang, key))}</b>: <span class="num">{e(value)}</span></li>')
    out += ["</ul>", f"<p><b>{e(label(lang, 'cause'))}.</b> {e(m['root_cause'])}</p>",
            f"<h3>{e(label(lang, 'fixes'))}</h3>", "<ol>"]
    for fix in m["fixes"]:
        spec = f": {e(fix['specific'])}" if fix["specific"] else ""
        links = ", ".join(_link(u, str(i)) for i, u in enumerate(fix["evidence"], 1))
        extra = measured_text(fix, lang)
        out.append(
            f"<li><b>{e(fix['action'])}</b>{spec}<br>{e(fix['how'])}"
            + (f"<br><i>{e(extra)}</i>" if extra else "")
            + f"<br><small>{e(label(lang, 'evidence'))}: {links}</small></li>"
        )
    out.append("</ol>")
    if m["dead_ends"]:
        out += [f"<h3>{e(label(lang, 'dead_ends'))}</h3>", '<ul class="dead">']
        out += [f"<li><b>{e(d['action'])}</b>: {e(d['why'])} ({_link(d['source'], 'source')})</li>"
                for d in m["dead_ends"]]
        out.append("</ul>")
    return [*out, "</section>"]


def render(view: ExplainView, lang: str) -> str:
    body = [f"<p>{escape(label(lang, 'none'))}</p>"] if not view["matches"] else []
    for m in view["matches"]:
        body += _match(m, lang)
    more = omitted_line(view, lang)
    if more:
        body.append(f"<p>{escape(more)}</p>")
    return (
        f'<!doctype html>\n<html lang="{lang}"><head><meta charset="utf-8">'
        f"<title>{escape(label(lang, 'title'))}</title><style>{_CSS}</style></head>\n<body>\n"
        f"<h1>{escape(label(lang, 'title'))}</h1>\n" + "\n".join(body) + "\n</body></html>\n"
    )
