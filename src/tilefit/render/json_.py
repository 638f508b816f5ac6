"""The JSON view: the documented contract every other renderer is drawn from."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from tilefit.render.view import DeadEndView, ExplainView, FixView, MatchView, MeasuredView

if TYPE_CHECKING:
    from tilefit.diagnosis import Diagnosis, Explanation
    from tilefit.diagnosis.advice import Advice
    from tilefit.kb.model import Measurement


def _measured(m: Measurement | None) -> MeasuredView | None:
    if m is None:
        return None
    view: MeasuredView = {
        "rate": m.rate, "n": m.n, "fixed": m.fixed, "targets": list(m.targets),
        "kernels": list(m.kernels), "rule": m.rule, "method": m.method, "date": m.date, "tools": dict(m.tools),
        "median_speed": m.median_speed,
    }
    if m.populations:
        view["populations"] = [
            {"name": p.name, "rule": p.rule, "rate": p.rate, "n": p.n, "fixed": p.fixed,
             "n_by_target": dict(p.n_by_target), "fixed_by_target": dict(p.fixed_by_target),
             "tools": dict(p.tools), "command": p.command, "source": p.source} for p in m.populations]
    return view


def _fix(a: Advice, zh: bool) -> FixView:
    f = a.fix
    return {
        "action": f.action_zh if zh else f.action,
        "how": f.how_zh if zh else f.how,
        "when": (f.when_zh or f.when) if zh else f.when,
        "knob": f.knob,
        "specific": a.specific_zh if zh else a.specific,
        "evidence": list(f.evidence),
        "measured": _measured(f.measured),
    }


def _match(d: Diagnosis, zh: bool) -> MatchView:
    e, m = d.entry, d.match
    return {
        "entry": e.id,
        "title": e.title_zh if zh else e.title,
        "resource": e.resource,
        "on_chip": e.on_chip,
        "confidence": m.confidence,
        "phase": d.phase,
        "framework": d.framework,
        "vendor": d.vendor,
        "severity": e.severity,
        "required_bytes": m.required,
        "limit_bytes": m.limit,
        "unit": e.number_unit,
        "ratio": d.ratio,
        "device_classes": [t.name for t in d.device_classes],
        "devices": {t.name: list(t.devices) for t in d.device_classes},
        "config": dict(d.config),
        "fixes": [_fix(a, zh) for a in d.advice],
        "dead_ends": [
            DeadEndView(action=x.action_zh if zh else x.action, why=x.why_zh if zh else x.why, source=x.source)
            for x in e.dead_ends
        ],
        "sources": list(e.sources),
        "summary": (e.summary_zh if zh else e.summary) or None,
        "root_cause": e.root_cause_zh if zh else e.root_cause,
        "numbers_approximate": m.approximate,
        "count": m.count,
        "text": m.text,
    }


def to_json(explanation: Explanation, lang: str = "en") -> ExplainView:
    """The JSON view of an explanation (the documented contract)."""
    from tilefit import __version__

    zh = lang == "zh"
    return {
        "tilefit": __version__,
        "matches": [_match(d, zh) for d in explanation.diagnoses],
        "omitted": explanation.omitted,
    }


def dumps(view: object) -> str:
    return json.dumps(view, ensure_ascii=False, indent=2)
