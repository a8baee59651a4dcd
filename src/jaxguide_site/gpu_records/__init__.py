"""GPU figures from records, with what made them: the ``gpu-record`` directive.

The pages execute on the CPU that builds the site. What they say of a GPU
comes from a record: a JSON file in ``docs/_data/gpu_records/`` that
``examples/gpu_record.py`` writes on a GPU (``<date>-<device>.json``: the
device, driver, JAX and jaxlib, the date, one sha256 over every file of the
repository the run executed, the git commit and command line, and every
measurement's raw times and values). A page names the measurement where it
shows it::

    ```{gpu-record} jit-log-exp
    ```

and the directive shows that measurement from the newest record holding it,
labelled as recorded (not executed by this build) with the device, JAX and
jaxlib, driver and date. Where no record holds it, it says so instead, in an
admonition: "No GPU record yet. The figures on this page were measured on
the CPU that built the site." Neither case is a warning; a malformed record
is, naming the file and the field, and fails the strict build, as does a
record made on a device other than a GPU.

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
