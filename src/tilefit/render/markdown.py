"""Markdown report (for issues and pull requests)."""

from __future__ import annotations

from tilefit.render.common import config_line, devices_line, header_tags, measured_text, numbers_line, omitted_line
from tilefit.render.i18n import label
from tilefit.render.view import ExplainView, MatchView


def _md(text: str) -> str:
    return " ".join(str(text).split()).replace("|", "\\|")


def _match(m: MatchView, lang: str) -> list[str]:
    out = [f"## {_md(m['title'])}", "", f"`{m['entry']}` · {header_tags(m, lang)}", ""]
    for key, value in (
        ("resource", numbers_line(m, lang)),
        ("devices", devices_line(m)),
        ("framework", f"{m['framework']} · {label(lang, 'phase')}: {m['phase']}"),
        ("config", config_line(m) and f"`{config_line(m)}`"),
    ):
        if value:
            out.append(f"- **{label(lang, key)}**: {_md(value)}")
    out += ["", f"**{label(lang, 'cause')}.** {_md(m['root_cause'])}", "", f"### {label(lang, 'fixes')}", ""]
    for n, fix in enumerate(m["fixes"], 1):
        head = f"{n}. **{_md(fix['action'])}**" + (f": {_md(fix['specific'])}" if fix["specific"] else "")
        out.append(head)
        out.append(f"   {_md(fix['how'])}")
        extra = measured_text(fix, lang)
        if extra:
            out.append(f"   *{_md(extra)}*")
        links = ", ".join(f"[{i}]({u})" for i, u in enumerate(fix["evidence"], 1))
        out.append(f"   {label(lang, 'evidence')}: {links}")
    if m["dead_ends"]:
        out += ["", f"### {label(lang, 'dead_ends')}", ""]
        out += [f"- **{_md(d['action'])}**: {_md(d['why'])} ([source]({d['source']}))" for d in m["dead_ends"]]
    return [*out, ""]


def render(view: ExplainView, lang: str) -> str:
    if not view["matches"]:
        return label(lang, "none") + "\n"
    lines = [f"# {label(lang, 'title')}", ""]
    for m in view["matches"]:
        lines += _match(m, lang)
    more = omitted_line(view, lang)
    if more:
        lines.append(more)
    return "\n".join(lines).rstrip() + "\n"
