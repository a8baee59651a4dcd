"""How a translator runs the checker, as every message naming a next step
quotes it. Every stage imports this; it imports nothing, so the stages' imports
run one way (a page read, compared, reported)."""

# nox installs what the checker needs first.
COMMAND = "python -m nox -s i18n --"
