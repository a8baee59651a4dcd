"""GPU figures from records, with what made them: the ``gpu-record`` directive.

The pages execute on the CPU that builds the site. What they say of a GPU
comes from a record: a JSON file in ``docs/_data/gpu_records/`` that
``examples/gpu_record.py`` writes on a GPU (``<date>-<device>.json``: the
device, driver, JAX and jaxlib, the date, the script's sha256 and command
line, and every measurement's raw times and values). A page names the
measurement before the paragraph that quotes it::

    ```{gpu-record} jit-log-exp
    ```

and the directive shows that measurement from the newest record holding it,
labelled as recorded (not executed by this build) with the device, JAX and
jaxlib, driver and date. Where no record holds it, it says so instead, in an
admonition: "No GPU record yet: the observation below was not recorded by a
script in this repository". Neither case is a warning; a malformed record
is, naming the file and the field, and fails the strict build.

Records are read by :mod:`.records`, rendered by :mod:`.directive`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..extension import PARALLEL_SAFE
from .directive import GpuRecordDirective, _default_folder, _new_records

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata

__all__ = ["setup"]


def setup(app: Sphinx) -> ExtensionMetadata:
    app.add_config_value("jaxguide_gpu_records", "", "env", str)
    app.add_directive("gpu-record", GpuRecordDirective)
    app.connect("config-inited", _default_folder)
    app.connect("env-get-outdated", _new_records)
    return PARALLEL_SAFE
