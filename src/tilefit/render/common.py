"""Pieces shared by the text, Markdown and HTML renderers (all read the JSON view)."""

from __future__ import annotations

from tilefit.render.i18n import label
from tilefit.render.view import ExplainView, FixView, MatchView, PopulationView
from tilefit.units import format_bytes


def amount(n: int, unit: str) -> str:
    """526336 B (514.00 KiB) for bytes; 384 threads for counts (the match's unit: its entry's, else its resource's)."""
    return format_bytes(n) if unit == "bytes" else f"{n} {unit}"


def numbers_line(m: MatchView, lang: str) -> str | None:
    """'needed 526336 B (514.00 KiB), allowed 232448 B (227.00 KiB): 2.26x over the limit'."""
    req, lim = m["required_bytes"], m["limit_bytes"]
    if req is None and lim is None:
        return None
    parts = []
    if req is not None:
        parts.append(f"{label(lang, 'needed')} {amount(req, m['unit'])}")
    if lim is not None:
        parts.append(f"{label(lang, 'allowed')} {amount(lim, m['unit'])}")
    line = ", ".join(parts)
    if m["ratio"] is not None:
        key = "over" if m["ratio"] > 1 else "under"
        line += f": {m['ratio']:.2f}x {label(lang, key)}"
    if m["numbers_approximate"]:
        line += " (~)"
    return line


def devices_line(m: MatchView) -> str | None:
    if not m["device_classes"]:
        return None
    return "; ".join(f"{name} ({', '.join(devs)})" for name, devs in m["devices"].items())


def config_line(m: MatchView) -> str | None:
    if not m["config"]:
        return None
    return ", ".join(f"{k}={v}" for k, v in m["config"].items())


def header_tags(m: MatchView, lang: str) -> str:
    tags = [m["resource"], label(lang, f"confidence_{m['confidence']}")]
    if not m["on_chip"]:
        tags.append(label(lang, "not_on_chip"))
    if m["severity"] == "warning":
        tags.append(label(lang, "warning"))
    if m["count"] > 1:
        tags.append(label(lang, "seen", n=m["count"]))
    return " · ".join(tags)


def measured_text(fix: FixView, lang: str) -> str | None:
    """'fixed 58% of 66 failing configs (halve the largest block): sm_80, sm_86, sm_90; ...'."""
    ms = fix["measured"]
    if not ms:
        return None
    pct = round(100 * ms["rate"])
    rule = f" ({ms['rule']})" if ms.get("rule") else ""
    where = f"{', '.join(ms['targets'])}; {'+'.join(ms['kernels'])}"
    speed = ms.get("median_speed")
    pops = "".join(population_text(p, lang) for p in ms.get("populations") or [])
    if lang == "zh":
        cost = f"；修复后配置的预测速度为最佳可行配置的 {speed:.2f} 倍（中位数）" if speed is not None else ""
        return f"实测：修复了 {ms['n']} 个失败配置中的 {pct}%{rule}：{where}；{ms['method']}{cost}{pops}"
    cost = "" if speed is None else f"; fixed configs run at {speed:.2f}x the best fitting config (median, predicted)"
    return f"fixed {pct}% of {ms['n']} failing configs{rule}: {where}; {ms['method']}{cost}{pops}"


def population_text(p: PopulationView, lang: str) -> str:
    """'; on SGLang 0.5.23's bundled MoE tables: 99.1% of 3231 (num_stages -> 1; sm_86 917/947, ...; triton 3.6.0)'."""
    per = ", ".join(f"{t} {p['fixed_by_target'].get(t, 0)}/{n}" for t, n in p["n_by_target"].items())
    tools = ", ".join(f"{k} {v}" for k, v in p["tools"].items())
    if lang == "zh":
        return f"；在 {p['name']} 上修复了 {p['n']} 个中的 {100 * p['rate']:.1f}%（{p['rule']}；{per}；{tools}）"
    return f"; on {p['name']}: {100 * p['rate']:.1f}% of {p['n']} ({p['rule']}; {per}; {tools})"


def omitted_line(view: ExplainView, lang: str) -> str | None:
    """'3 more distinct error(s) not shown ...' when the input had more than the diagnosed ones."""
    if not view["omitted"]:
        return None
    return label(lang, "omitted", n=view["omitted"], limit=len(view["matches"]))
