"""Labels of the rendered reports, in English and Chinese."""

from __future__ import annotations

LABELS: dict[str, dict[str, str]] = {
    "en": {
        "none": "No known on-chip memory error was recognised in this input.",
        "needed": "needed", "allowed": "allowed", "over": "over the limit", "under": "of the limit",
        "devices": "Limit matches", "framework": "Framework", "phase": "Phase", "config": "Config in log",
        "cause": "Why", "fixes": "What to do", "dead_ends": "What does not work", "sources": "Sources",
        "evidence": "evidence", "when": "when", "not_on_chip": "not an on-chip memory error",
        "warning": "warning (not fatal)", "seen": "seen {n} times", "measured": "measured",
        "resource": "Resource", "vendor": "Vendor", "estimate_note":
        "Numbers marked 'estimate' assume buffers scale with the knob; `tilefit estimate` gives exact bytes.",
        "title": "tilefit diagnosis",
        "same_as": "Same cause, fixes and dead ends as [{n}]; the advice for these numbers:",
        "confidence_exact": "exact match",
        "confidence_partial": "partial match (numbers cut off or rounded)",
        "confidence_inferred": "inferred (a likely cause, not the error's own words)",
        "omitted": "{n} more distinct error(s) not shown (past the first {limit}).",
    },
    "zh": {
        "none": "输入中未识别出已知的片上内存错误。",
        "needed": "需要", "allowed": "允许", "over": "超出上限", "under": "占上限",
        "devices": "该上限对应的设备", "framework": "框架", "phase": "阶段", "config": "日志中的配置",
        "cause": "原因", "fixes": "解决办法", "dead_ends": "无效的做法", "sources": "来源",
        "evidence": "证据", "when": "适用", "not_on_chip": "不是片上内存错误",
        "warning": "警告（非致命）", "seen": "出现 {n} 次", "measured": "实测",
        "resource": "资源", "vendor": "厂商", "estimate_note":
        "标注“估算”的数字假设缓冲区随参数线性变化；`tilefit estimate` 可给出精确字节数。",
        "title": "tilefit 诊断",
        "same_as": "原因、解决办法和无效做法同 [{n}]；针对这些数字的建议：",
        "confidence_exact": "精确匹配",
        "confidence_partial": "部分匹配（数字被截断或取整）",
        "confidence_inferred": "推断（可能的原因，并非错误原文）",
        "omitted": "另有 {n} 个不同的错误未显示（超过前 {limit} 个）。",
    },
}


def label(lang: str, key: str, **kw: object) -> str:
    return LABELS[lang][key].format(**kw)
