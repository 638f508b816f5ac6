"""tilefit's sitecustomize: `tilefit run` puts this folder first on PYTHONPATH so that every Python child
(Inductor's compile workers, Helion's precompile forks, pytest-xdist workers) installs the plug-in when
TILEFIT_PLUGIN is on. It then runs the sitecustomize it shadows, if any, so a site's own keeps working.
"""

import os
import sys


def _tilefit_boot() -> None:
    if os.environ.get("TILEFIT_PLUGIN", "") not in ("", "0", "false", "no", "off"):
        try:
            from tilefit.plugin import boot

            boot()
        except Exception as exc:  # never break the child's start
            print(f"tilefit plug-in not installed: {type(exc).__name__}: {exc}", file=sys.stderr, flush=True)


def _chain() -> None:
    """Run the next sitecustomize.py on sys.path, the one this file shadows."""
    import importlib.util

    here = os.path.dirname(os.path.abspath(__file__))
    for entry in sys.path:
        if not entry or os.path.abspath(entry) == here:
            continue
        candidate = os.path.join(entry, "sitecustomize.py")
        if os.path.isfile(candidate):
            spec = importlib.util.spec_from_file_location("_tilefit_chained_sitecustomize", candidate)
            if spec is not None and spec.loader is not None:
                module = importlib.util.module_from_spec(spec)
                sys.modules[spec.name] = module
                spec.loader.exec_module(module)
            return


_tilefit_boot()
_chain()
