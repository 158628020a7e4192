"""The executable parts of two rulespecs compared data path by data path, each change with its provision."""
from __future__ import annotations

import re
from typing import Any, Optional

from .diff_model import DATA_KEYS

# -------------------------------------------------------------- structured data

def _keyed(items: list) -> Optional[dict]:
    keys = []
    for x in items:
        if not isinstance(x, dict):
            return None
        k = x.get("id", x.get("hand", x.get("name")))
        if k is None:
            return None
        keys.append(str(k))
    if len(set(keys)) != len(keys):
        return None
    return dict(zip(keys, items))


def _walk(a: Any, b: Any, path: str, out: list[dict]) -> None:
    if isinstance(a, dict) and isinstance(b, dict):
        for k in list(a) + [k for k in b if k not in a]:
            p = f"{path}.{k}" if path else str(k)
            if k not in b:
                out.append({"path": p, "change": "removed", "old": a[k]})
            elif k not in a:
                out.append({"path": p, "change": "added", "new": b[k]})
            else:
                _walk(a[k], b[k], p, out)
        return
    if isinstance(a, list) and isinstance(b, list):
        ka, kb = _keyed(a), _keyed(b)
        if ka is not None and kb is not None:
            _walk(ka, kb, path, out)
            return
        for i in range(max(len(a), len(b))):
            p = f"{path}[{i}]"
            if i >= len(b):
                out.append({"path": p, "change": "removed", "old": a[i]})
            elif i >= len(a):
                out.append({"path": p, "change": "added", "new": b[i]})
            else:
                _walk(a[i], b[i], p, out)
        return
    if a != b:
        out.append({"path": path, "change": "changed", "old": a, "new": b})


def data_diff(a: dict, b: dict) -> list[dict]:
    """Path-by-path comparison of the executable parts of two rulespecs; each change carries the
    provision it implements (the nearest ``cite`` on its path, in the new spec or else the old)
    and the part it belongs to (payouts, paytables, options, procedure, ...)."""
    out: list[dict] = []
    for key in DATA_KEYS:
        if key in a or key in b:
            _walk(a.get(key) or {}, b.get(key) or {}, key, out)
    for d in out:
        d["part"] = d["path"].split(".", 1)[0].split("[", 1)[0]
        d["cite"] = _cite_on_path(b, d["path"]) or _cite_on_path(a, d["path"])
        if d["part"] == "payouts":
            pid = d["path"].split(".")[1] if "." in d["path"] else None
            names = [w.get("name") or wid for wid, w in ((b.get("wagers") or a.get("wagers") or {}).items())
                     if isinstance(w, dict) and w.get("pays") == pid]
            if names:
                d["wagers"] = names
    return out


_PATH_TOKEN = re.compile(r"\.?([^.\[\]]+)|\[([0-9]+)\]")


def _cite_on_path(spec: dict, path: str) -> Optional[str]:
    """The nearest ``cite`` along a data path (``payouts.tie.odds``, ``procedure.settle.rules[0]``)."""
    node: Any = spec
    cite = None
    for m in _PATH_TOKEN.finditer(path):
        key, idx = m.group(1), m.group(2)
        if isinstance(node, dict) and isinstance(node.get("cite"), str):
            cite = node["cite"]
        if idx is not None:
            node = node[int(idx)] if isinstance(node, list) and int(idx) < len(node) else None
        elif isinstance(node, dict):
            node = node.get(key)
        elif isinstance(node, list):  # a keyed list (ids, hands, names)
            node = (_keyed(node) or {}).get(key)
        else:
            node = None
        if node is None:
            break
    if isinstance(node, dict) and isinstance(node.get("cite"), str):
        cite = node["cite"]
    return cite
